package dev.codememory.readers.viewer;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the web viewer reads beyond the commands' own queries ({@code ReportQueries},
 * {@code CitationQueries}, {@code InjectionQueries}): the timeline, a session's events in
 * order, the task board and the health figures. Every statement is bounded by a limit or
 * keyed by an indexed column, so a page stays fast at a hundred thousand memories.
 */
public final class ViewerQueries {

    /** Longest text of one event the viewer shows (a pasted log is cut, and says so). */
    public static final int MAX_EVENT_CHARS = 4_000;

    private static final int PREVIEW_CHARS = 160;

    /**
     * One line of the timeline: a session that started, an event captured, or a memory
     * graduated.
     *
     * @param kind {@code session}, {@code event} or {@code memory}
     * @param id the session id, event id or citation
     * @param type the event type or memory kind (a session's: its prompt and tool counts)
     * @param seq an event's ingest order (0 for the others)
     */
    public record TimelineItem(String kind, String id, LocalDateTime ts, String project, String sessionId, String type,
            String text, long seq) {
    }

    /**
     * One event of a session, its texts cut at {@value #MAX_EVENT_CHARS} characters.
     */
    public record SessionEvent(String eventId, long seq, LocalDateTime ts, String eventType, String prompt,
            String reply, String tool, String toolInput, String toolResponse, boolean failed, String detail) {
    }

    /** A task on the board with its blockers and its history, oldest first. */
    public record TaskCard(String taskId, String project, String title, String status, String priority,
            List<String> blockers, List<String> history) {
    }

    /** A memory in a short list: citation, kind, status, title. */
    public record MemoryLine(String memoryId, String citation, String kind, String status, LocalDateTime createdTs,
            String title) {
    }

    /**
     * One reject with its reason: a spool line ingest could not read, or a candidate
     * graduation refused.
     */
    public record Reject(String stage, String subject, String reason, LocalDateTime at) {
    }

    /**
     * A session as the timeline tells it: when and where, how much was asked and done,
     * the summary graduation wrote for it (null before) and its memories by kind.
     *
     * @param summaryCitation the citation of its summary memory, null when none
     * @param memoriesByKind its current verified memories per kind, most first
     */
    public record SessionRow(String sessionId, String project, LocalDateTime firstTs, LocalDateTime lastTs,
            long prompts, long toolCalls, String branch, String summaryCitation, String summaryBody,
            Map<String, Long> memoriesByKind) {
    }

    /**
     * The event types a reader follows a session by: what the user asked, what Claude
     * answered, the tools it ran (the others are bookkeeping of Claude Code).
     */
    public static final List<String> STORY_EVENTS = List.of("UserPromptSubmit", "Stop", "PostToolUse",
            "PostToolUseFailure");

    private ViewerQueries() {
    }

    /** The projects with captured sessions, the most recently active first. */
    public static List<String> projects(Connection c) throws SQLException {
        return Sql.list(c, "SELECT project FROM sessions GROUP BY project ORDER BY max(started_at) DESC",
                rs -> rs.getString(1));
    }

    /**
     * The newest {@code limit} sessions, events and verified memories of a project (all
     * projects when null), newest first.
     */
    public static List<TimelineItem> timeline(Connection c, String project, int limit) throws SQLException {
        return Sql.list(c,
                """
                        SELECT * FROM (
                          (SELECT 'session' AS kind, session_id AS id, started_at AS ts, project, session_id,
                                  prompt_count || ' prompts, ' || tool_count || ' tool calls' AS type, coalesce(branch, '') AS text,
                                  0 AS seq
                           FROM sessions WHERE (? IS NULL OR project = ?) ORDER BY started_at DESC LIMIT ?)
                          UNION ALL
                          (SELECT 'memory', 'mem:' || ci.citation, e.created_ts, e.project, e.session_id, e.entry_type, e.title, 0
                           FROM (SELECT entry_id, created_ts, project, session_id, entry_type, title FROM entries
                                 WHERE stage = 'verified' AND status = 'active' AND (? IS NULL OR project = ?)
                                 ORDER BY created_ts DESC LIMIT ?) e
                           JOIN citations ci ON ci.memory_id = e.entry_id)
                          UNION ALL
                          (SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                           FROM events WHERE seq IN (SELECT seq FROM events WHERE (? IS NULL OR project = ?)
                                                     ORDER BY ts DESC, seq DESC LIMIT ?)))
                        ORDER BY ts DESC, kind, id LIMIT ?"""
                    .formatted(eventPreview()),
                ViewerQueries::timelineItem, project, project, limit, project, project, limit, project, project, limit,
                limit);
    }

    /**
     * Events ingested after {@code afterSeq} (at most {@code limit}, oldest first): what
     * the live timeline adds.
     */
    public static List<TimelineItem> eventsAfter(Connection c, long afterSeq, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                FROM events WHERE seq > ? ORDER BY seq LIMIT ?""".formatted(eventPreview()),
                ViewerQueries::timelineItem, afterSeq, limit);
    }

    /**
     * Verified memories graduated after {@code after} (creation time of the row, UTC), at
     * most {@code limit}, oldest first.
     */
    public static List<TimelineItem> memoriesAfter(Connection c, LocalDateTime after, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT 'memory', 'mem:' || ci.citation, e.created_ts, e.project, e.session_id, e.entry_type, e.title,
                       0, e.created_at
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND e.status = 'active' AND e.created_at > ?
                ORDER BY e.created_at LIMIT ?""", ViewerQueries::timelineItem, after, limit);
    }

    /** The highest ingest sequence and the newest memory row's creation time. */
    public static Object[] marks(Connection c) throws SQLException {
        return Sql
            .first(c, """
                    SELECT (SELECT coalesce(max(seq), 0) FROM events),
                           (SELECT coalesce(max(created_at), TIMESTAMP '1970-01-01') FROM entries)""",
                    rs -> new Object[] { rs.getLong(1), rs.getObject(2, LocalDateTime.class) })
            .orElseThrow();
    }

    /** A session's events in time order (then ingest order). */
    public static List<SessionEvent> sessionEvents(Connection c, String sessionId) throws SQLException {
        return Sql.list(c, """
                SELECT e.event_id, e.seq, e.ts, e.event_type,
                       left(json_extract_string(e.payload, '$.prompt'), ?),
                       left(json_extract_string(e.payload, '$.last_assistant_message'), ?),
                       json_extract_string(e.payload, '$.tool_name'),
                       left(json_extract(e.payload, '$.tool_input')::VARCHAR, ?),
                       left(coalesce(json_extract_string(e.payload, '$.tool_response.stdout'),
                                     json_extract(e.payload, '$.tool_response')::VARCHAR), ?),
                       coalesce(o.failed, e.event_type = 'PostToolUseFailure'),
                       coalesce(json_extract_string(e.payload, '$.source'), json_extract_string(e.payload, '$.reason'),
                                json_extract_string(e.payload, '$.error'))
                FROM events e LEFT JOIN observations o ON o.observation_id = e.event_id
                WHERE e.session_id = ? ORDER BY e.ts, e.seq""",
                rs -> new SessionEvent(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                        rs.getString(9), rs.getBoolean(10), rs.getString(11)),
                MAX_EVENT_CHARS, MAX_EVENT_CHARS, MAX_EVENT_CHARS, MAX_EVENT_CHARS, sessionId);
    }

    /**
     * A session's verified memories, oldest first; or the memories {@code supersedes}
     * names when {@code sessionId} is null.
     */
    public static List<MemoryLine> sessionMemories(Connection c, String sessionId) throws SQLException {
        return memories(c, "e.session_id = ? ORDER BY e.created_ts, e.entry_id", sessionId);
    }

    /** The memories a memory superseded (merged into it). */
    public static List<MemoryLine> superseded(Connection c, String memoryId) throws SQLException {
        return memories(c, "e.superseded_by = ? ORDER BY e.created_ts, e.entry_id", memoryId);
    }

    /**
     * Verified memories whose title or body contains {@code text} (case-insensitive), in
     * a status, newest first: the hybrid index holds active memories only, so this is how
     * the search page lists superseded ones.
     */
    public static List<MemoryLine> containing(Connection c, String text, String status, String project, int limit)
            throws SQLException {
        return Sql.list(c, """
                SELECT e.entry_id, 'mem:' || ci.citation, e.entry_type, e.status, e.created_ts, e.title
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND e.status = ? AND (? IS NULL OR e.project = ?)
                  AND (e.title ILIKE '%' || ? || '%' OR e.body ILIKE '%' || ? || '%')
                ORDER BY e.created_ts DESC LIMIT ?""", ViewerQueries::memoryLine, status, project, project, text, text,
                limit);
    }

    /** Every task with its blockers and history, for the board. */
    public static List<TaskCard> tasks(Connection c, String project) throws SQLException {
        return Sql.list(c, """
                SELECT t.entity_id, t.project, t.title, t.status, coalesce(t.current_json->>'priority', ''),
                       (SELECT list(b.entity_type || ': ' || b.title ORDER BY b.title)
                        FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by'),
                       (SELECT list(strftime(h.ts, '%Y-%m-%d %H:%M') || ' ' || h.event_type ORDER BY h.seq)
                        FROM task_events h WHERE h.entity_id = t.entity_id)
                FROM entities t WHERE t.entity_type = 'task' AND (? IS NULL OR t.project = ?)
                ORDER BY t.updated_at DESC, t.title LIMIT 2000""", rs -> new TaskCard(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), strings(rs.getArray(6)), strings(rs.getArray(7))),
                project, project);
    }

    /**
     * The {@code limit} sessions with the newest events (of a project, or all when null),
     * newest first: those among the last 5,000 events and the newest graduated ones.
     */
    public static List<SessionRow> recentSessions(Connection c, String project, int limit) throws SQLException {
        return sessionRows(c, """
                SELECT session_id FROM events
                WHERE seq IN (SELECT seq FROM events WHERE session_id IS NOT NULL AND (? IS NULL OR project = ?)
                              ORDER BY ts DESC, seq DESC LIMIT 5000)
                UNION
                (SELECT session_id FROM sessions WHERE (? IS NULL OR project = ?) ORDER BY started_at DESC LIMIT ?)""",
                limit, project, project, project, project, limit);
    }

    /** One session's row; empty when no event of it is stored. */
    public static java.util.Optional<SessionRow> sessionRow(Connection c, String sessionId) throws SQLException {
        return sessionRows(c, "SELECT ?", 1, sessionId).stream().findFirst();
    }

    /**
     * The newest {@code limit} events of a session that tell its story
     * ({@link #STORY_EVENTS}), newest first.
     */
    public static List<TimelineItem> storyEvents(Connection c, String sessionId, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                FROM events WHERE session_id = ? AND event_type IN (%s)
                ORDER BY ts DESC, seq DESC LIMIT ?""".formatted(eventPreview(), storyTypes()),
                ViewerQueries::timelineItem, sessionId, limit);
    }

    private static List<SessionRow> sessionRows(Connection c, String ids, int limit, Object... params)
            throws SQLException {
        Object[] bound = java.util.Arrays.copyOf(params, params.length + 1);
        bound[params.length] = limit;
        return Sql.list(c,
                """
                        WITH ids AS (%s)
                        SELECT ev.session_id, ev.project, ev.first_ts, ev.last_ts, ev.prompts, ev.tools, s.branch,
                               sm.citation, sm.body,
                               (SELECT list(k.entry_type || '=' || k.n ORDER BY k.n DESC, k.entry_type)
                                FROM (SELECT x.entry_type, count(*) AS n FROM entries x
                                      WHERE x.session_id = ev.session_id AND x.stage = 'verified' AND x.status = 'active'
                                      GROUP BY x.entry_type) k)
                        FROM (SELECT session_id, any_value(project) AS project, min(ts) AS first_ts, max(ts) AS last_ts,
                                     count(*) FILTER (WHERE event_type = 'UserPromptSubmit') AS prompts,
                                     count(*) FILTER (WHERE event_type IN ('PostToolUse', 'PostToolUseFailure')) AS tools
                              FROM events WHERE session_id IN (SELECT * FROM ids) GROUP BY session_id) ev
                        LEFT JOIN sessions s ON s.session_id = ev.session_id
                        LEFT JOIN (SELECT e.session_id, 'mem:' || ci.citation AS citation, e.body,
                                          row_number() OVER (PARTITION BY e.session_id ORDER BY e.created_ts DESC, e.entry_id) AS rn
                                   FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                                   WHERE e.entry_type = 'summary' AND e.stage = 'verified' AND e.status = 'active'
                                     AND e.session_id IN (SELECT * FROM ids)) sm
                               ON sm.session_id = ev.session_id AND sm.rn = 1
                        ORDER BY ev.last_ts DESC, ev.session_id LIMIT ?"""
                    .formatted(ids),
                rs -> {
                    Map<String, Long> kinds = new LinkedHashMap<>();
                    for (String kv : strings(rs.getArray(10))) {
                        int eq = kv.lastIndexOf('=');
                        kinds.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
                    }
                    return new SessionRow(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class),
                            rs.getObject(4, LocalDateTime.class), rs.getLong(5), rs.getLong(6), rs.getString(7),
                            rs.getString(8), rs.getString(9), kinds);
                }, bound);
    }

    private static String storyTypes() {
        return String.join(", ", STORY_EVENTS.stream().map(t -> "'" + t + "'").toList());
    }

    /** Verified memories created per day (UTC) over the last {@code days} days. */
    public static Map<LocalDate, Long> memoriesPerDay(Connection c, int days) throws SQLException {
        return inOrder(Sql.list(c, """
                SELECT CAST(created_at AS DATE) AS day, count(*) FROM entries
                WHERE stage = 'verified' AND created_at >= CAST((now() AT TIME ZONE 'UTC') AS DATE) - ?::INTEGER
                GROUP BY day ORDER BY day""", ViewerQueries::dayCount, days - 1));
    }

    /** Events captured per day (UTC) over the last {@code days} days, oldest first. */
    public static Map<LocalDate, Long> eventsPerDay(Connection c, int days) throws SQLException {
        return inOrder(Sql.list(c, """
                SELECT CAST(ts AS DATE) AS day, count(*) FROM events
                WHERE ts >= CAST((now() AT TIME ZONE 'UTC') AS DATE) - ?::INTEGER GROUP BY day ORDER BY day""",
                ViewerQueries::dayCount, days - 1));
    }

    /** The vector outbox by status ({@code pending}, {@code done}, {@code failed}). */
    public static Map<String, Long> embeddingProgress(Connection c) throws SQLException {
        return inOrder(Sql.list(c, "SELECT status, count(*) FROM vector_outbox GROUP BY status ORDER BY status",
                rs -> Map.entry(rs.getString(1), rs.getLong(2))));
    }

    /** The newest rejects of ingest and of graduation, with their reasons. */
    public static List<Reject> rejects(Connection c, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT * FROM (
                  (SELECT 'ingest' AS stage, spool_file || ':' || spool_line AS subject, reason, rejected_at AS happened
                   FROM event_rejects ORDER BY rejected_at DESC LIMIT ?)
                  UNION ALL
                  (SELECT stage, subject_id, reason, rejected_at FROM graduation_rejects
                   ORDER BY rejected_at DESC LIMIT ?))
                ORDER BY happened DESC LIMIT ?""", rs -> new Reject(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getObject(4, LocalDateTime.class)), limit, limit, limit);
    }

    private static List<MemoryLine> memories(Connection c, String where, String key) throws SQLException {
        return Sql.list(c, """
                SELECT e.entry_id, 'mem:' || ci.citation, e.entry_type, e.status, e.created_ts, e.title
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND""" + " " + where + " LIMIT 500", ViewerQueries::memoryLine, key);
    }

    private static Map.Entry<LocalDate, Long> dayCount(ResultSet rs) throws SQLException {
        return Map.entry(rs.getObject(1, LocalDate.class), rs.getLong(2));
    }

    /** The pairs as a map that keeps their order. */
    private static <K> Map<K, Long> inOrder(List<Map.Entry<K, Long>> pairs) {
        Map<K, Long> map = new LinkedHashMap<>();
        pairs.forEach(pair -> map.put(pair.getKey(), pair.getValue()));
        return map;
    }

    private static MemoryLine memoryLine(ResultSet rs) throws SQLException {
        return new MemoryLine(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getObject(5, LocalDateTime.class), rs.getString(6));
    }

    /**
     * One line of what an event says: the prompt, the reply, else the tool and its
     * command.
     */
    private static String eventPreview() {
        return """
                left(regexp_replace(coalesce(json_extract_string(payload, '$.prompt'),
                  json_extract_string(payload, '$.last_assistant_message'),
                  json_extract_string(payload, '$.tool_name') || ' ' || coalesce(
                    json_extract_string(payload, '$.tool_input.command'),
                    json_extract_string(payload, '$.tool_input.file_path'), ''),
                  json_extract_string(payload, '$.source'), json_extract_string(payload, '$.reason'), ''),
                  '\\s+', ' ', 'g'), %d)""".formatted(PREVIEW_CHARS);
    }

    private static TimelineItem timelineItem(ResultSet rs) throws SQLException {
        return new TimelineItem(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getLong(8));
    }

    private static List<String> strings(java.sql.Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) array.getArray()) {
            out.add(String.valueOf(o));
        }
        return out;
    }

}
