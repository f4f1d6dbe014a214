package dev.codememory.readers.summary;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.summary.SessionMaterial.Item;
import dev.codememory.config.summary.SessionMaterial;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read side of the summary stage: which sessions need a summary, and what each left
 * behind, item by item, each item a verified memory with its citation and first quote.
 */
public final class SessionSummaryQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** The stage mark of a session's summary at its current extent. */
    public static final String MARK_SQL = "'summary|' || s.session_id || '|' || s.last_seq";

    /**
     * Sessions that are over — ended, or followed by a newer session of their project —
     * fully extracted, and not yet summarised at their current extent (a session that
     * grew since is summarised again).
     */
    public static final String SESSIONS_TO_SUMMARIZE = """
            SELECT s.session_id, s.started_at FROM sessions s
            WHERE s.extracted_seq >= s.last_seq
              AND (s.ended_at IS NOT NULL OR EXISTS (SELECT 1 FROM sessions n WHERE n.project = s.project
                                                     AND n.started_at > s.started_at))
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'summary' AND m.subject_id = %s)
            ORDER BY s.started_at, s.session_id""".formatted(MARK_SQL);

    /** Files edited by these tools count as changed. */
    private static final String EDIT_TOOLS = "('Edit', 'MultiEdit', 'Write', 'NotebookEdit')";

    private SessionSummaryQueries() {
    }

    /**
     * The sessions of this page, from the temporary table
     * {@value PendingItemReader#KEYS_TABLE}.
     */
    private static final String PAGE_SESSIONS = "(SELECT key FROM " + PendingItemReader.KEYS_TABLE + ")";

    /**
     * What each session of a page left behind, in the page's order: one query per part
     * for the whole page (the sessions in {@value PendingItemReader#KEYS_TABLE}) rather
     * than per session.
     */
    public static List<SessionMaterial> material(Connection c) throws SQLException {
        Map<String, List<Item>> goal = items(c, """
                SELECT e.session_id, e.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR FROM entries e
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id IN %s AND e.entry_type = 'exchange' AND e.stage = 'verified'
                  AND json_extract_string(e.quotes_json, '$[0].field') = 'prompt'
                QUALIFY row_number() OVER (PARTITION BY e.session_id ORDER BY e.created_ts, e.entry_id) <= 5
                ORDER BY e.session_id, e.created_ts, e.entry_id""".formatted(PAGE_SESSIONS));
        Map<String, List<Item>> work = verified(c, "work", "");
        Map<String, List<Item>> completed = items(c, """
                SELECT e.session_id, t.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR
                FROM task_events te
                JOIN entities t ON t.entity_id = te.entity_id
                JOIN entries e ON e.entry_id = te.source_entry
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id IN %s AND e.entry_type = 'task' AND te.event_type = 'task_status_changed'
                  AND json_extract_string(te.payload, '$.to') = 'DONE'
                ORDER BY e.session_id, te.ts, te.seq""".formatted(PAGE_SESSIONS));
        Map<String, List<Item>> fixes = verified(c, "insight", "AND e.title LIKE 'Fixed `%'");
        Map<String, List<Item>> decisions = verified(c, "decision", "");
        Map<String, List<Item>> open = items(c, """
                SELECT e.session_id, t.title, replace(t.status, '_', ' '), e.entry_id, c.citation,
                       e.quotes_json::VARCHAR
                FROM edges ed
                JOIN entries e ON e.entry_id = ed.src_id
                JOIN entities t ON t.entity_id = ed.dst_id
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id IN %s AND ed.rel_type = 'evidence_of' AND e.status = 'active'
                  AND t.status IN ('pending', 'in_progress', 'blocked')
                ORDER BY e.session_id, e.created_ts, e.entry_id""".formatted(PAGE_SESSIONS));
        Map<String, List<Item>> changed = items(c, """
                WITH edits AS (
                  SELECT o.session_id, json_extract_string(o.files, '$[0]') AS file, o.observation_id, o.ts
                  FROM observations o WHERE o.session_id IN %s AND NOT o.failed AND o.tool IN %s
                    AND json_array_length(o.files) > 0),
                per_file AS (
                  SELECT session_id, file, count(*) AS n, arg_max(observation_id, ts) AS latest, max(ts) AS last_ts
                  FROM edits GROUP BY session_id, file)
                SELECT f.session_id, f.file, CASE WHEN f.n > 1 THEN f.n || ' edits' ELSE '' END, e.entry_id,
                       c.citation, e.quotes_json::VARCHAR
                FROM per_file f
                JOIN entries e ON e.entry_type = 'observation' AND e.stage = 'verified'
                              AND json_extract_string(e.quotes_json, '$[0].eventId') = f.latest
                JOIN citations c ON c.memory_id = e.entry_id
                ORDER BY f.session_id, f.n DESC, f.last_ts DESC, f.file""".formatted(PAGE_SESSIONS, EDIT_TOOLS));
        return Sql.list(c, """
                SELECT s.session_id, s.project, s.started_at,
                       coalesce(s.ended_at, (SELECT max(ts) FROM events v WHERE v.session_id = s.session_id)),
                       s.last_seq
                FROM sessions s JOIN %s k ON k.key = s.session_id
                ORDER BY k.ord""".formatted(PendingItemReader.KEYS_TABLE), rs -> {
            String id = rs.getString(1);
            String project = rs.getString(2);
            List<Item> relative = changed.getOrDefault(id, List.of())
                .stream()
                .map(i -> new Item(ProjectResolver.relative(i.text(), project), i.detail(), i.memoryId(), i.citation(),
                        i.quote()))
                .toList();
            return new SessionMaterial(id, project, rs.getObject(3, LocalDateTime.class),
                    rs.getObject(4, LocalDateTime.class), rs.getLong(5), of(goal, id), of(work, id), of(completed, id),
                    of(fixes, id), of(decisions, id), of(open, id), relative);
        });
    }

    private static List<Item> of(Map<String, List<Item>> bySession, String sessionId) {
        return bySession.getOrDefault(sessionId, List.of());
    }

    private static Map<String, List<Item>> verified(Connection c, String kind, String condition) throws SQLException {
        return items(c, """
                SELECT e.session_id, e.title, '', e.entry_id, c.citation, e.quotes_json::VARCHAR FROM entries e
                JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.session_id IN %s AND e.entry_type = '%s' AND e.stage = 'verified' %s
                ORDER BY e.session_id, e.created_ts, e.entry_id""".formatted(PAGE_SESSIONS, kind, condition));
    }

    /**
     * Rows of (session id, text, detail, memory id, citation, quotes JSON) as items per
     * session, in row order; a memory listed twice in a session counts once.
     */
    private static Map<String, List<Item>> items(Connection c, String sql) throws SQLException {
        Map<String, List<Item>> bySession = new HashMap<>();
        Map<String, Set<String>> seen = new HashMap<>();
        Sql.each(c, sql, rs -> {
            String session = rs.getString(1);
            List<Quote> quotes = MAPPER.readValue(rs.getString(6), new TypeReference<List<Quote>>() {
            });
            if (!quotes.isEmpty() && seen.computeIfAbsent(session, k -> new HashSet<>()).add(rs.getString(4))) {
                bySession.computeIfAbsent(session, k -> new ArrayList<>())
                    .add(new Item(rs.getString(2), rs.getString(3), rs.getString(4), "mem:" + rs.getString(5),
                            quotes.get(0)));
            }
        });
        return bySession;
    }

}
