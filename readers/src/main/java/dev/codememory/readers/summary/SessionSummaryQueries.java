package dev.codememory.readers.summary;

import dev.codememory.config.graduate.Quote;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.summary.SessionMaterial;
import dev.codememory.config.summary.SessionMaterial.Item;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read side of the summary stage: which sessions need a summary, and what each left behind, item by item, each
 * item a verified memory with its citation and first quote.
 */
public final class SessionSummaryQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** The stage mark of a session's summary at its current extent. */
    public static final String MARK_SQL = "'summary|' || s.session_id || '|' || s.last_seq";

    /**
     * Sessions that are over — ended, or followed by a newer session of their project — fully extracted, and not yet
     * summarised at their current extent (a session that grew since is summarised again).
     */
    public static final String SESSIONS_TO_SUMMARIZE = """
            SELECT s.session_id FROM sessions s
            WHERE s.extracted_seq >= s.last_seq
              AND (s.ended_at IS NOT NULL OR EXISTS (SELECT 1 FROM sessions n WHERE n.project = s.project
                                                     AND n.started_at > s.started_at))
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'summary' AND m.subject_id = %s)
            ORDER BY s.started_at, s.session_id""".formatted(MARK_SQL);

    /** Files edited by these tools count as changed. */
    private static final String EDIT_TOOLS = "('Edit', 'MultiEdit', 'Write', 'NotebookEdit')";

    private SessionSummaryQueries() {
    }

    /** What the session left behind. */
    public static SessionMaterial material(Connection c, String sessionId) throws SQLException {
        String project;
        LocalDateTime started;
        LocalDateTime ended;
        long lastSeq;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT project, started_at, coalesce(ended_at, (SELECT max(ts) FROM events WHERE session_id = ?1)),
                       last_seq
                FROM sessions WHERE session_id = ?1""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no session " + sessionId);
                }
                project = rs.getString(1);
                started = rs.getObject(2, LocalDateTime.class);
                ended = rs.getObject(3, LocalDateTime.class);
                lastSeq = rs.getLong(4);
            }
        }
        List<Item> goal = items(c, sessionId, """
                SELECT e.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR FROM entries e
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id = ? AND e.entry_type = 'exchange' AND e.stage = 'verified'
                  AND json_extract_string(e.quotes_json, '$[0].field') = 'prompt'
                ORDER BY e.created_ts, e.entry_id LIMIT 5""");
        List<Item> work = verified(c, sessionId, "work", "");
        List<Item> completed = items(c, sessionId, """
                SELECT t.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR
                FROM task_events te
                JOIN entities t ON t.entity_id = te.entity_id
                JOIN entries e ON e.entry_id = te.source_entry
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id = ? AND e.entry_type = 'task' AND te.event_type = 'task_status_changed'
                  AND json_extract_string(te.payload, '$.to') = 'DONE'
                ORDER BY te.ts, te.seq""");
        List<Item> fixes = verified(c, sessionId, "insight", "AND e.title LIKE 'Fixed `%'");
        List<Item> decisions = verified(c, sessionId, "decision", "");
        List<Item> open = items(c, sessionId, """
                SELECT t.title, replace(t.status, '_', ' '), e.entry_id, c.citation, e.quotes_json::VARCHAR
                FROM edges ed
                JOIN entries e ON e.entry_id = ed.src_id
                JOIN entities t ON t.entity_id = ed.dst_id
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id = ? AND ed.rel_type = 'evidence_of' AND e.status = 'active'
                  AND t.status IN ('pending', 'in_progress', 'blocked')
                ORDER BY e.created_ts, e.entry_id""");
        List<Item> changed = items(c, sessionId, """
                WITH edits AS (
                  SELECT json_extract_string(o.files, '$[0]') AS file, o.observation_id, o.ts
                  FROM observations o WHERE o.session_id = ? AND NOT o.failed AND o.tool IN %s
                    AND json_array_length(o.files) > 0),
                per_file AS (
                  SELECT file, count(*) AS n, arg_max(observation_id, ts) AS latest, max(ts) AS last_ts
                  FROM edits GROUP BY file)
                SELECT f.file, CASE WHEN f.n > 1 THEN f.n || ' edits' ELSE '' END, e.entry_id, c.citation,
                       e.quotes_json::VARCHAR
                FROM per_file f
                JOIN entries e ON e.entry_type = 'observation' AND e.stage = 'verified'
                              AND json_extract_string(e.quotes_json, '$[0].eventId') = f.latest
                JOIN citations c ON c.memory_id = e.entry_id
                ORDER BY f.n DESC, f.last_ts DESC, f.file""".formatted(EDIT_TOOLS));
        List<Item> relative = changed.stream().map(i -> new Item(ProjectResolver.relative(i.text(), project), i.detail(),
                i.memoryId(), i.citation(), i.quote())).toList();
        return new SessionMaterial(sessionId, project, started, ended, lastSeq, goal,
                work, completed, fixes, decisions, open, relative);
    }

    private static List<Item> verified(Connection c, String sessionId, String kind, String condition)
            throws SQLException {
        return items(c, sessionId, """
                SELECT e.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR FROM entries e
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id = ? AND e.entry_type = '%s' AND e.stage = 'verified' %s
                ORDER BY e.created_ts, e.entry_id""".formatted(kind, condition));
    }

    /** Rows of (text, detail, memory id, citation, quotes JSON) as items; a memory listed twice counts once. */
    private static List<Item> items(Connection c, String sessionId, String sql) throws SQLException {
        List<Item> items = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Quote> quotes = MAPPER.readValue(rs.getString(5), new TypeReference<List<Quote>>() { });
                    if (quotes.isEmpty() || seen.contains(rs.getString(3))) {
                        continue;
                    }
                    seen.add(rs.getString(3));
                    items.add(new Item(rs.getString(1), rs.getString(2), rs.getString(3), "mem:" + rs.getString(4),
                            quotes.get(0)));
                }
            }
        }
        return items;
    }
}
