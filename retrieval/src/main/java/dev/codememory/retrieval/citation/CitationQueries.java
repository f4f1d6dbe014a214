package dev.codememory.retrieval.citation;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.SourceTextLookup;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the stored citations ({@code citations}: 6-character code ↔ memory id) and what
 * {@code show} prints for one: the memory, its evidence spans with the quoted text, and
 * its source events with their neighbours.
 */
public final class CitationQueries {

    public static final String PREFIX = "mem:";

    private static final Pattern CODE = Pattern.compile("[A-Za-z0-9_-]{6}");

    private static final int IDS_PER_STATEMENT = 1_000;

    private CitationQueries() {
    }

    /**
     * The 6-character code of {@code mem:abc123}, {@code [mem:abc123]} or {@code abc123};
     * empty when malformed.
     */
    public static Optional<String> code(String citation) {
        if (citation == null) {
            return Optional.empty();
        }
        String s = citation.strip();
        if (s.startsWith("[") && s.endsWith("]")) {
            s = s.substring(1, s.length() - 1).strip();
        }
        if (s.startsWith(PREFIX)) {
            s = s.substring(PREFIX.length());
        }
        return CODE.matcher(s).matches() ? Optional.of(s) : Optional.empty();
    }

    /**
     * The stored citation ({@code mem:xxxxxx}) of each of the memories that has one, by
     * memory id.
     */
    public static Map<String, String> citationsOf(Connection c, Collection<String> memoryIds) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> ids = List.copyOf(memoryIds);
        for (int from = 0; from < ids.size(); from += IDS_PER_STATEMENT) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + IDS_PER_STATEMENT));
            for (String[] row : byKeys(c, "SELECT memory_id, citation FROM citations WHERE memory_id", part,
                    rs -> new String[] { rs.getString(1), rs.getString(2) })) {
                out.put(row[0], PREFIX + row[1]);
            }
        }
        return out;
    }

    /**
     * The stored citation of every verified memory of a project (of every project when it
     * is null).
     */
    public static Map<String, String> citationsOfProject(Connection c, String project) throws SQLException {
        Map<String, String> out = new java.util.HashMap<>();
        Sql.each(c,
                "SELECT c.memory_id, c.citation FROM citations c"
                        + " JOIN entries e ON e.entry_id = c.memory_id WHERE e.stage = 'verified'"
                        + " AND (? IS NULL OR e.project = ?)",
                rs -> out.put(rs.getString(1), PREFIX + rs.getString(2)), project, project);
        return out;
    }

    /** The memory a citation stands for; empty when it is malformed or not stored. */
    public static Optional<String> memoryOf(Connection c, String citation) throws SQLException {
        Optional<String> code = code(citation);
        if (code.isEmpty()) {
            return Optional.empty();
        }
        return Sql.first(c, "SELECT memory_id FROM citations WHERE citation = ?", rs -> rs.getString(1), code.get());
    }

    /**
     * The cited memory, whatever its stage and status; empty when the citation is
     * malformed or unknown.
     */
    public static Optional<CitedMemory> memory(Connection c, String citation) throws SQLException {
        Optional<String> code = code(citation);
        if (code.isEmpty()) {
            return Optional.empty();
        }
        // two lookups by key, not a join: a join reads every entry (tens of ms at a
        // million memories)
        List<String> memoryIds = byKeys(c, "SELECT memory_id FROM citations WHERE citation", List.of(code.get()),
                rs -> rs.getString(1));
        if (memoryIds.isEmpty()) {
            return Optional.empty();
        }
        return Sql.first(c, """
                SELECT entry_id, entry_type, status, stage, project, session_id, created_ts, title, body, superseded_by
                FROM entries WHERE entry_id = ?""",
                rs -> new CitedMemory(PREFIX + code.get(), rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getObject(7, LocalDateTime.class),
                        rs.getString(8), rs.getString(9), rs.getString(10)),
                memoryIds.get(0));
    }

    /**
     * The memory's evidence spans in quote order, each with its quoted text read back
     * through {@code sources} — the same source-text reads the aligner found the quote
     * in.
     */
    public static List<CitedSpan> spans(Connection c, String memoryId, SourceTextLookup sources) throws SQLException {
        List<CitedSpan> spans = Sql.list(c, """
                SELECT quote_index, event_id, field, span_start, span_end, confidence, method
                FROM evidence_spans WHERE entry_id = ? ORDER BY quote_index""", rs -> new CitedSpan(rs.getInt(1),
                rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5), rs.getDouble(6), rs.getString(7), null),
                memoryId);
        Map<String, String> tools = toolNames(c,
                spans.stream().filter(s -> s.field().startsWith("tool_")).map(CitedSpan::eventId).distinct().toList());
        List<CitedSpan> quoted = new ArrayList<>(spans.size());
        for (CitedSpan s : spans) {
            String text = sources.text(s.eventId(), s.field());
            String quote = text != null && s.end() <= text.length() ? text.substring(s.start(), s.end()) : null;
            quoted.add(new CitedSpan(s.quoteIndex(), s.eventId(), s.field(), s.start(), s.end(), s.confidence(),
                    s.method(), quote, tools.get(s.eventId())));
        }
        return quoted;
    }

    /** The tool name of each of these events that is a tool call, by event id. */
    private static Map<String, String> toolNames(Connection c, List<String> eventIds) throws SQLException {
        Map<String, String> tools = new HashMap<>();
        for (String eventId : eventIds) {
            Sql.first(c, "SELECT json_extract_string(payload, '$.tool_name') FROM events WHERE event_id = ?",
                    rs -> rs.getString(1), eventId)
                .ifPresent(tool -> tools.put(eventId, tool));
        }
        return tools;
    }

    /**
     * The memory's source events, each with the event just before and just after it in
     * its session (time order, then ingest order), every event once: sessions in the
     * order of their first source event, events in session order. Adjacent sources share
     * their neighbours, so an exchange reads prompt, reply and what came around them.
     *
     * <p>
     * Read by key only (the memory's source events by their ids, a session's events and
     * turns by the session, the picked events' words and tool calls by their ids), each
     * an equality DuckDB answers from an index, and a handful of statements per memory
     * whatever its length: the prompt hook discloses this for its top memories. A single
     * query joining the memory's sources to their sessions scanned every event and every
     * turn (2-4 s at a million memories, against a budget of 2.5 s for the whole prompt);
     * a statement per picked event cost the hook ~40 ms a memory in statement overhead.
     */
    public static List<ContextEvent> sourceContext(Connection c, String memoryId) throws SQLException {
        return sourceContext(c, memoryId, 1, 1);
    }

    /**
     * The title and body of each of these memories as recorded, title first, by memory
     * id; memories that are gone are left out.
     */
    public static Map<String, String> recordedTexts(Connection c, Collection<String> memoryIds) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String[] row : byKeys(c, "SELECT entry_id, title, body FROM entries WHERE entry_id", memoryIds,
                rs -> new String[] { rs.getString(1), rs.getString(2), rs.getString(3) })) {
            out.put(row[0],
                    row[2] == null || row[2].isBlank() || row[2].startsWith(row[1]) ? row[2] : row[1] + "\n" + row[2]);
        }
        return out;
    }

    /**
     * Every recorded field of these events (prompts, replies, tool inputs and responses),
     * in time order, each field once; events that are gone are left out.
     */
    public static List<SourceField> sourceFields(Connection c, Collection<String> eventIds) throws SQLException {
        List<SourceField> rows = new ArrayList<>();
        if (eventIds.isEmpty()) {
            return rows;
        }
        String in = in(eventIds.size());
        String sql = "SELECT prompt_event_id, prompt_ts, 'prompt', NULL, prompt_text FROM turns WHERE prompt_event_id"
                + in + " UNION ALL SELECT reply_event_id, reply_ts, 'reply', NULL, reply_text FROM turns"
                + " WHERE reply_text IS NOT NULL AND reply_event_id" + in
                + " UNION ALL SELECT observation_id, ts, 'tool_input', tool, input_text FROM observations"
                + " WHERE input_text IS NOT NULL AND observation_id" + in
                + " UNION ALL SELECT observation_id, ts, 'tool_response', tool, output_text FROM observations"
                + " WHERE output_text IS NOT NULL AND observation_id" + in + " ORDER BY 2, 1, 3";
        List<Object> params = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            params.addAll(eventIds);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        Sql.each(c, sql, rs -> {
            if (seen.add(rs.getString(1) + '\n' + rs.getString(3))) {
                rows.add(new SourceField(rs.getString(1), rs.getTimestamp(2).toLocalDateTime(), rs.getString(3),
                        rs.getString(4), rs.getString(5)));
            }
        }, params.toArray());
        return rows;
    }

    /**
     * As {@link #sourceContext(Connection, String)}, with {@code before} events before
     * and {@code after} events after each source event in its session (each at least 0).
     */
    public static List<ContextEvent> sourceContext(Connection c, String memoryId, int before, int after)
            throws SQLException {
        if (before < 0 || after < 0) {
            throw new IllegalArgumentException("before and after must not be negative");
        }
        Map<String, List<Positioned>> sessions = new LinkedHashMap<>(); // "" stands for
                                                                        // events without
                                                                        // a session
        Map<String, LocalDateTime> firstSource = new LinkedHashMap<>();
        java.util.Set<String> sources = new java.util.LinkedHashSet<>(
                byKeys(c, "SELECT DISTINCT event_id FROM evidence_spans WHERE entry_id", List.of(memoryId),
                        rs -> rs.getString(1)));
        Map<String, Positioned> found = new java.util.HashMap<>();
        for (Positioned e : byKeys(c, POSITIONED + "event_id", sources, CitationQueries::positioned)) {
            found.put(e.eventId(), e);
        }
        for (String eventId : sources) {
            Positioned e = found.get(eventId);
            if (e == null) {
                continue; // erased
            }
            String session = e.sessionId() == null ? "" : e.sessionId();
            firstSource.merge(session, e.ts(), (a, b) -> a.isBefore(b) ? a : b);
            if (session.isEmpty()) {
                sessions.computeIfAbsent(session, k -> new ArrayList<>()).add(e);
            }
            else if (!sessions.containsKey(session)) {
                sessions.put(session,
                        byKeys(c, POSITIONED + "session_id", List.of(session), CitationQueries::positioned));
            }
        }
        List<String> order = new ArrayList<>(sessions.keySet());
        order.sort(java.util.Comparator.comparing((String k) -> firstSource.get(k))
            .thenComparing(k -> k.isEmpty() ? null : k,
                    java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder())));
        List<Picked> picks = new ArrayList<>();
        Map<String, String[]> turns = new java.util.HashMap<>();
        for (String session : order) {
            List<Positioned> inOrder = new ArrayList<>(sessions.get(session));
            inOrder.sort(java.util.Comparator.comparing(Positioned::ts).thenComparingLong(Positioned::seq));
            boolean[] picked = new boolean[inOrder.size()];
            for (int i = 0; i < inOrder.size(); i++) {
                if (sources.contains(inOrder.get(i).eventId())) {
                    for (int k = Math.max(0, i - before); k <= Math.min(inOrder.size() - 1, i + after); k++) {
                        picked[k] = true;
                    }
                }
            }
            List<String> pickedIds = new ArrayList<>();
            for (int i = 0; i < inOrder.size(); i++) {
                if (picked[i]) {
                    picks.add(new Picked(inOrder.get(i), i + 1));
                    pickedIds.add(inOrder.get(i).eventId());
                }
            }
            if (!session.isEmpty()) {
                turns.putAll(turnTexts(c, session, pickedIds));
            }
        }
        return contextEvents(c, picks, sources, turns);
    }

    /** An event of a memory's timeline and its place in its session, counted from 1. */
    private record Picked(Positioned event, long position) {
    }

    /**
     * The picked events with their texts: the payload's own word for each and the tool
     * call of each tool event, one query per table for all of them.
     */
    private static List<ContextEvent> contextEvents(Connection c, List<Picked> picks, java.util.Set<String> sources,
            Map<String, String[]> turns) throws SQLException {
        List<String> ids = picks.stream().map(p -> p.event().eventId()).toList();
        Map<String, String> details = new java.util.HashMap<>();
        for (String[] row : byKeys(c, """
                SELECT event_id,
                       coalesce(json_extract_string(payload, '$.prompt'),
                                json_extract_string(payload, '$.last_assistant_message'),
                                json_extract_string(payload, '$.source'),
                                json_extract_string(payload, '$.reason'),
                                json_extract_string(payload, '$.message'),
                                json_extract_string(payload, '$.tool_name'))
                FROM events WHERE event_id""", ids, rs -> new String[] { rs.getString(1), rs.getString(2) })) {
            details.put(row[0], row[1]);
        }
        Map<String, String[]> tools = new java.util.HashMap<>();
        String toolCalls = "SELECT observation_id, tool, input_text, output_text FROM observations WHERE observation_id";
        for (String[] row : byKeys(c, toolCalls, ids,
                rs -> new String[] { rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4) })) {
            tools.put(row[0], row);
        }
        List<ContextEvent> events = new ArrayList<>(picks.size());
        for (Picked p : picks) {
            Positioned e = p.event();
            String[] turn = turns.getOrDefault(e.eventId(), new String[2]);
            String[] tool = tools.getOrDefault(e.eventId(), new String[4]);
            events.add(new ContextEvent(e.eventId(), e.sessionId(), e.seq(), p.position(), e.ts(), e.eventType(),
                    sources.contains(e.eventId()), turn[0], turn[1], tool[1], tool[2], tool[3],
                    details.get(e.eventId())));
        }
        return events;
    }

    /** An event's place in its session. */
    private record Positioned(String eventId, long seq, LocalDateTime ts, String sessionId, String eventType) {
    }

    private static final String POSITIONED = "SELECT event_id, seq, ts, session_id, event_type FROM events WHERE ";

    private static Positioned positioned(ResultSet rs) throws SQLException {
        return new Positioned(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class), rs.getString(4),
                rs.getString(5));
    }

    /**
     * Every row {@code select} (ending in its key column) reads for these keys, each an
     * equality DuckDB answers from an index: one statement for all of them.
     */
    private static <T> List<T> byKeys(Connection c, String select, Collection<String> keys, Sql.Row<T> row)
            throws SQLException {
        if (keys.isEmpty()) {
            return new ArrayList<>();
        }
        return Sql.list(c, select + in(keys.size()), row, keys.toArray());
    }

    /** {@code " = ?"} for one key, {@code " IN (?, ?, …)"} for more. */
    private static String in(int keys) {
        return keys == 1 ? " = ?" : " IN (" + String.join(", ", Collections.nCopies(keys, "?")) + ")";
    }

    /**
     * The prompt and the reply text of the turns of a session that these events began or
     * ended, by the id of the event each came from (the first turn's, when several name
     * one).
     */
    private static Map<String, String[]> turnTexts(Connection c, String sessionId, List<String> eventIds)
            throws SQLException {
        Map<String, String[]> texts = new java.util.HashMap<>();
        String ids = in(eventIds.size());
        List<Object> params = new ArrayList<>();
        params.add(sessionId);
        params.addAll(eventIds);
        params.addAll(eventIds);
        Sql.each(c, """
                SELECT prompt_event_id, prompt_text, reply_event_id, reply_text FROM turns
                WHERE session_id = ? AND (prompt_event_id%1$s OR reply_event_id%1$s)
                ORDER BY turn_id""".formatted(ids), rs -> {
            // a reply with no prompt before it (the assistant spoke first, or a second
            // time) is a turn of its own whose prompt event is the Stop itself and whose
            // prompt is empty: that event is the reply, not a prompt
            String prompt = rs.getString(2);
            keepFirst(texts, rs.getString(1), 0, prompt == null || prompt.isEmpty() ? null : prompt);
            keepFirst(texts, rs.getString(3), 1, rs.getString(4));
        }, params.toArray());
        return texts;
    }

    private static void keepFirst(Map<String, String[]> texts, String eventId, int slot, String text) {
        if (eventId != null) {
            String[] both = texts.computeIfAbsent(eventId, k -> new String[2]);
            if (both[slot] == null) {
                both[slot] = text;
            }
        }
    }

}
