package dev.codememory.retrieval.query;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The query path's reads: the verified, active memories of a project (or of all projects)
 * and the source events of a set of memories, from {@code evidence_spans} joined to
 * {@code events}, ordered by event time.
 */
public final class MemoryQueries {

    private MemoryQueries() {
    }

    /**
     * One instance of a value many rows repeat (a kind, a status, a project, a session
     * id): serve holds every memory of a project for days, and a string per row and field
     * cost ~50 MB at 100k memories.
     */
    private static String one(Map<String, String> shared, String value) {
        if (value == null) {
            return null;
        }
        String first = shared.putIfAbsent(value, value);
        return first == null ? value : first;
    }

    /**
     * Verified, active memories of the project, or of every project when {@code project}
     * is null.
     */
    public static List<StoredMemory> memories(Connection c, String project) throws SQLException {
        String sql = """
                SELECT entry_id, entry_type, status, project, session_id, created_ts, title, body
                FROM entries WHERE stage = 'verified' AND status = 'active' AND (? IS NULL OR project = ?)
                ORDER BY created_ts, entry_id""";
        Map<String, String> shared = new java.util.HashMap<>();
        return Sql.list(c, sql,
                rs -> new StoredMemory(rs.getString(1), one(shared, rs.getString(2)), one(shared, rs.getString(3)),
                        one(shared, rs.getString(4)), one(shared, rs.getString(5)),
                        rs.getTimestamp(6).toLocalDateTime(), rs.getString(7), rs.getString(8)),
                project, project);
    }

    /**
     * The text of each memory's source turns (prompt, reply, tool input or output: the
     * field its evidence was found in), by memory, in time order; memories of the
     * project, or of every project when it is null.
     */
    public static Map<String, List<String>> sourceTexts(Connection c, String project) throws SQLException {
        String sql = """
                WITH texts AS (
                  SELECT prompt_event_id AS event_id, 'prompt' AS field, prompt_text AS text, prompt_ts AS ts
                  FROM turns
                  UNION ALL SELECT reply_event_id, 'reply', reply_text, reply_ts FROM turns
                            WHERE reply_event_id IS NOT NULL
                  UNION ALL SELECT observation_id, 'tool_input', input_text, ts FROM observations
                  UNION ALL SELECT observation_id, 'tool_response', output_text, ts FROM observations)
                SELECT DISTINCT s.entry_id, s.event_id, s.field, t.text, t.ts
                FROM evidence_spans s
                JOIN entries e ON e.entry_id = s.entry_id
                JOIN texts t ON t.event_id = s.event_id AND t.field = s.field
                WHERE e.stage = 'verified' AND e.status = 'active' AND (? IS NULL OR e.project = ?)
                  AND t.text IS NOT NULL
                ORDER BY s.entry_id, t.ts, s.event_id, s.field""";
        Map<String, List<String>> out = new LinkedHashMap<>();
        Sql.each(c, sql, rs -> out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(4)),
                project, project);
        return out;
    }

    /**
     * Everything the query path reads about the sources of a project's verified, active
     * memories (of every project when {@code project} is null), in one scan, for a
     * process that answers many queries:
     *
     * @param sources each memory's source events, by event time then id, each event once
     * (as {@link #sources})
     * @param eventTexts each source event's text, its fields joined in field order
     * @param turnTexts each memory's source texts, one per event and field (as
     * {@link #sourceTexts})
     * @param nextSaid for each source event that is a prompt or reply, the prompt or
     * reply that follows it in its session (as {@link #spokenTurns}; absent when it is
     * the session's last): read here in one pass, because reading a few sessions per
     * query cost serve 5–50 ms a search
     */
    public record ProjectSources(Map<String, List<MemorySource>> sources, Map<String, String> eventTexts,
            Map<String, List<String>> turnTexts, Map<String, MemorySource> nextSaid) {
    }

    public static ProjectSources projectSources(Connection c, String project) throws SQLException {
        String sql = """
                WITH texts AS (
                  SELECT prompt_event_id AS event_id, 'prompt' AS field, prompt_text AS text FROM turns
                  UNION ALL SELECT reply_event_id, 'reply', reply_text FROM turns WHERE reply_event_id IS NOT NULL
                  UNION ALL SELECT observation_id, 'tool_input', input_text FROM observations
                  UNION ALL SELECT observation_id, 'tool_response', output_text FROM observations)
                SELECT DISTINCT s.entry_id, s.event_id, ev.session_id, ev.ts, s.field, t.text
                FROM evidence_spans s
                JOIN entries e ON e.entry_id = s.entry_id
                JOIN events ev ON ev.event_id = s.event_id
                LEFT JOIN texts t ON t.event_id = s.event_id AND t.field = s.field
                WHERE e.stage = 'verified' AND e.status = 'active' AND (? IS NULL OR e.project = ?)
                ORDER BY s.entry_id, ev.ts, s.event_id, s.field""";
        Map<String, List<MemorySource>> sources = new java.util.HashMap<>();
        Map<String, java.util.TreeMap<String, String>> fields = new java.util.HashMap<>();
        Map<String, List<String>> turnTexts = new java.util.HashMap<>();
        Map<String, String> shared = new java.util.HashMap<>();
        String[] last = new String[2]; // the previous row's entry and event
        Sql.each(c, sql, rs -> {
            String entry = rs.getString(1);
            String event = rs.getString(2);
            if (!entry.equals(last[0]) || !event.equals(last[1])) {
                sources.computeIfAbsent(entry, k -> new ArrayList<>())
                    .add(new MemorySource(event, one(shared, rs.getString(3)), rs.getTimestamp(4).toLocalDateTime()));
            }
            last[0] = entry;
            last[1] = event;
            String text = rs.getString(6);
            if (text != null) {
                fields.computeIfAbsent(event, k -> new java.util.TreeMap<>()).putIfAbsent(rs.getString(5), text);
                turnTexts.computeIfAbsent(entry, k -> new ArrayList<>()).add(text);
            }
        }, project, project);
        Map<String, String> eventTexts = new java.util.HashMap<>();
        fields.forEach((event, byField) -> eventTexts.put(event, String.join("\n", byField.values())));
        return new ProjectSources(sources, eventTexts, turnTexts, nextSaid(c, project, sources));
    }

    /**
     * The prompt or reply after each source event that is one, in its session (by time; a
     * turn's prompt before its reply; a reply-only turn names its reply as its prompt
     * event), as {@link #spokenTurns} orders them. A next event that is itself a source
     * shares that source's instance.
     */
    private static Map<String, MemorySource> nextSaid(Connection c, String project,
            Map<String, List<MemorySource>> sources) throws SQLException {
        Map<String, MemorySource> known = new java.util.HashMap<>();
        sources.values().forEach(list -> list.forEach(s -> known.putIfAbsent(s.eventId(), s)));
        String sql = """
                WITH said AS (
                  SELECT session_id, prompt_event_id AS event_id, prompt_ts AS ts, 0 AS part FROM turns
                  WHERE (reply_event_id IS NULL OR prompt_event_id <> reply_event_id) AND (? IS NULL OR project = ?)
                  UNION ALL SELECT session_id, reply_event_id, reply_ts, 1 FROM turns
                  WHERE reply_event_id IS NOT NULL AND (? IS NULL OR project = ?)),
                ordered AS (
                  SELECT event_id, lead(event_id) OVER w AS next_id, lead(session_id) OVER w AS next_session,
                         lead(ts) OVER w AS next_ts
                  FROM said WINDOW w AS (PARTITION BY session_id ORDER BY ts, part, event_id))
                SELECT DISTINCT o.event_id, o.next_id, o.next_session, o.next_ts FROM ordered o
                JOIN evidence_spans s ON s.event_id = o.event_id
                JOIN entries e ON e.entry_id = s.entry_id
                WHERE o.next_id IS NOT NULL AND e.stage = 'verified' AND e.status = 'active'
                  AND (? IS NULL OR e.project = ?)""";
        Map<String, MemorySource> out = new java.util.HashMap<>();
        Sql.each(c, sql, rs -> {
            String next = rs.getString(2);
            MemorySource source = known.get(next);
            out.put(rs.getString(1), source != null ? source
                    : new MemorySource(next, rs.getString(3), rs.getTimestamp(4).toLocalDateTime()));
        }, project, project, project, project, project, project);
        return out;
    }

    /**
     * Source events of each memory, by event time then id, each event once per memory.
     */
    public static Map<String, List<MemorySource>> sources(Connection c, Collection<String> memoryIds)
            throws SQLException {
        Map<String, List<MemorySource>> out = new LinkedHashMap<>();
        if (memoryIds.isEmpty()) {
            return out;
        }
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS query_memory_ids (memory_id VARCHAR)");
            st.execute("DELETE FROM temp.main.query_memory_ids");
        }
        Sql.batch(c, "INSERT INTO temp.main.query_memory_ids VALUES (?)", memoryIds, id -> new Object[] { id });
        String sql = """
                SELECT DISTINCT s.entry_id, e.event_id, e.session_id, e.ts
                FROM evidence_spans s JOIN events e ON e.event_id = s.event_id
                WHERE s.entry_id IN (SELECT memory_id FROM temp.main.query_memory_ids)
                ORDER BY s.entry_id, e.ts, e.event_id""";
        Sql.each(c, sql, rs -> out.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
            .add(new MemorySource(rs.getString(2), rs.getString(3), rs.getTimestamp(4).toLocalDateTime())));
        return out;
    }

    /**
     * The prompts and replies among these source events, each with the prompt or reply
     * that follows it in its session (by time; a turn's prompt before its reply). Tool
     * events are not turns and are absent. Only the sources' own sessions are read, by
     * id, without their texts (a reply-only turn names its reply as its prompt event),
     * and ordered here: a third of the cost of a window query reading the texts.
     */
    public static Map<String, SpokenTurn> spokenTurns(Connection c, Collection<MemorySource> sources)
            throws SQLException {
        Map<String, SpokenTurn> out = new LinkedHashMap<>();
        java.util.Set<String> wanted = new java.util.HashSet<>();
        List<String> sessions = new ArrayList<>();
        for (MemorySource s : sources) {
            wanted.add(s.eventId());
            if (!sessions.contains(s.sessionId())) {
                sessions.add(s.sessionId());
            }
        }
        if (wanted.isEmpty()) {
            return out;
        }
        Map<String, List<Said>> bySession = new LinkedHashMap<>();
        String sql = """
                SELECT session_id, prompt_event_id, prompt_ts, reply_event_id IS NULL OR prompt_event_id <> reply_event_id,
                       reply_event_id, reply_ts
                FROM turns WHERE session_id IN (%s)"""
            .formatted(placeholders(sessions.size()));
        Sql.each(c, sql, rs -> {
            List<Said> said = bySession.computeIfAbsent(rs.getString(1), k -> new ArrayList<>());
            if (rs.getBoolean(4)) {
                said.add(new Said(rs.getString(2), rs.getString(1), rs.getTimestamp(3).toLocalDateTime(), 0));
            }
            if (rs.getString(5) != null) {
                said.add(new Said(rs.getString(5), rs.getString(1), rs.getTimestamp(6).toLocalDateTime(), 1));
            }
        }, sessions.toArray());
        for (List<Said> said : bySession.values()) {
            said.sort(
                    java.util.Comparator.comparing(Said::ts).thenComparingInt(Said::part).thenComparing(Said::eventId));
            for (int i = 0; i < said.size(); i++) {
                Said s = said.get(i);
                if (wanted.contains(s.eventId())) {
                    Said next = i + 1 < said.size() ? said.get(i + 1) : null;
                    out.putIfAbsent(s.eventId(), new SpokenTurn(s.eventId(),
                            next == null ? null : new MemorySource(next.eventId(), next.sessionId(), next.ts())));
                }
            }
        }
        return out;
    }

    /** A prompt ({@code part} 0) or reply (1) of a session, for ordering. */
    private record Said(String eventId, String sessionId, java.time.LocalDateTime ts, int part) {
    }

    private static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

}
