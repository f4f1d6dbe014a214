package dev.codememory.readers.context;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.readers.workingset.WorkingSetQueries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What SessionStart shows for a project: the summary of its last finished session (other
 * than the one starting), its open and blocked tasks, and its stated preferences — all
 * verified memories, each with the memory that backs it so it can be cited.
 */
public final class SessionStartQueries {

    /** A memory shown as one text: its id (for the citation) and the text. */
    public record MemoryText(String memoryId, String text) {
    }

    /**
     * An open task: its title and status, the titles of what blocks it, and the latest
     * verified entry that speaks of it (the memory its citation points to).
     */
    public record TaskLine(String title, String status, List<String> blockers, String memoryId) {
    }

    private SessionStartQueries() {
    }

    /**
     * The newest session summary of the project, excluding the session now starting: its
     * memory, body and session, and when that session ended.
     */
    public record LastSession(String memoryId, String text, String sessionId, LocalDateTime endedAt) {
    }

    /** The newest session summary of the project, excluding the session now starting. */
    public static Optional<LastSession> lastSession(Connection c, String project, String currentSession)
            throws SQLException {
        String sql = """
                SELECT entry_id, body, session_id, created_ts FROM entries
                WHERE entry_type = 'summary' AND stage = 'verified' AND status = 'active' AND project = ?
                  AND session_id IS DISTINCT FROM ?
                ORDER BY created_ts DESC, entry_id LIMIT 1""";
        return Sql.first(c, sql, rs -> new LastSession(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getObject(4, LocalDateTime.class)), project, currentSession);
    }

    /**
     * The project's sessions other than {@code currentSession} with an event not older
     * than {@code since} (null: of any age), the newest event first, at most
     * {@code limit}.
     */
    public static List<String> recentSessions(Connection c, String project, String currentSession, LocalDateTime since,
            int limit) throws SQLException {
        String sql = """
                SELECT session_id FROM events
                WHERE project = ? AND session_id IS NOT NULL AND session_id IS DISTINCT FROM ?
                  AND (CAST(? AS TIMESTAMP) IS NULL OR ts >= ?)
                GROUP BY session_id ORDER BY max(ts) DESC, max(seq) DESC LIMIT ?""";
        return Sql.list(c, sql, rs -> rs.getString(1), project, currentSession, since, since, limit);
    }

    /**
     * The newest {@code limit} of a session's prompts, replies and tool calls, in seq
     * order, for telling whether it worked: a tool call's payload is only its tool's name
     * (its input and output are not loaded).
     */
    public static List<StoredEvent> talkEvents(Connection c, String sessionId, int limit) throws SQLException {
        String sql = """
                WITH recent AS (
                  SELECT event_id, seq, ts, event_type, session_id, project,
                         CASE WHEN event_type IN ('UserPromptSubmit', 'Stop') THEN payload::VARCHAR
                              ELSE json_object('hook_event_name', event_type, 'session_id', session_id,
                                               'tool_name', json_extract_string(payload, '$.tool_name'))::VARCHAR
                         END AS payload
                  FROM events
                  WHERE session_id = ? AND event_type IN ('UserPromptSubmit', 'Stop', 'PostToolUse',
                                                          'PostToolUseFailure', 'TaskCreated', 'TaskCompleted')
                  ORDER BY seq DESC LIMIT ?)
                SELECT event_id, seq, ts, event_type, session_id, project, payload FROM recent ORDER BY seq""";
        return Sql.list(c, sql, WorkingSetQueries::storedEvent, sessionId, limit);
    }

    /**
     * The project's active topic memories, the most recently continued first: each as its
     * title, a line break and its body.
     */
    public static List<MemoryText> activeTopics(Connection c, String project, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT entry_id, title || chr(10) || body FROM entries
                WHERE entry_type = 'topic' AND stage = 'verified' AND status = 'active' AND project = ?
                ORDER BY created_ts DESC, entry_id LIMIT ?""", SessionStartQueries::memoryText, project, limit);
    }

    /**
     * The open tasks of the project worth showing at the start of a session, at most
     * {@code limit}: pending, in progress or blocked, each with its newest verified
     * statement (the memory its citation points to), and shown only when that statement
     * is from {@code lastSession} or not older than {@code horizon} — a task nobody has
     * touched for a while is not shown as open forever, though it stays open in the task
     * list. Order: those left open by the last session first, then in progress before the
     * rest, then by priority (critical, high, medium, low), then newest first.
     */
    public static List<TaskLine> openTasks(Connection c, String project, String lastSession, LocalDateTime horizon,
            int limit) throws SQLException {
        String sql = """
                WITH open AS (
                  SELECT entity_id, title, status, current_json FROM entities
                  WHERE entity_type = 'task' AND project = ? AND status IN ('pending', 'in_progress', 'blocked')),
                stated AS (
                  SELECT ed.dst_id AS task_id, arg_max(en.entry_id, en.created_ts) AS entry_id,
                         arg_max(en.session_id, en.created_ts) AS session_id, max(en.created_ts) AS ts
                  FROM open JOIN edges ed ON ed.dst_id = open.entity_id
                  JOIN entries en ON en.entry_id = ed.src_id
                  WHERE ed.rel_type = 'evidence_of' AND en.stage = 'verified'
                  GROUP BY ed.dst_id)
                SELECT t.title, t.status,
                       (SELECT string_agg(b.title, chr(31) ORDER BY b.title) FROM edges e
                        JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by'),
                       stated.entry_id
                FROM open t JOIN stated ON stated.task_id = t.entity_id
                WHERE stated.session_id IS NOT DISTINCT FROM ? OR stated.ts >= ?
                ORDER BY stated.session_id IS NOT DISTINCT FROM ? DESC, t.status = 'in_progress' DESC,
                         CASE json_extract_string(t.current_json, '$.priority')
                           WHEN 'CRITICAL' THEN 0 WHEN 'HIGH' THEN 1 WHEN 'MEDIUM' THEN 2 ELSE 3 END,
                         stated.ts DESC, t.entity_id
                LIMIT ?""";
        return Sql.list(c, sql, rs -> {
            String blockers = rs.getString(3);
            return new TaskLine(rs.getString(1), rs.getString(2),
                    blockers == null ? List.of() : Arrays.asList(blockers.split("\u001f")), rs.getString(4));
        }, project, lastSession, horizon, lastSession, limit);
    }

    /** The project's stated preferences, newest first. */
    public static List<MemoryText> preferences(Connection c, String project, int limit) throws SQLException {
        String sql = """
                SELECT entry_id, title FROM entries
                WHERE entry_type = 'preference' AND stage = 'verified' AND status = 'active' AND project = ?
                ORDER BY created_ts DESC, entry_id LIMIT ?""";
        return Sql.list(c, sql, SessionStartQueries::memoryText, project, limit);
    }

    private static MemoryText memoryText(ResultSet rs) throws SQLException {
        return new MemoryText(rs.getString(1), rs.getString(2));
    }

}
