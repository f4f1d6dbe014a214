package dev.codememory.readers.citation;

import dev.codememory.config.graduate.SourceTextLookup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
            String sql = "SELECT memory_id, citation FROM citations WHERE memory_id IN ("
                    + String.join(", ", Collections.nCopies(part.size(), "?")) + ")";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < part.size(); i++) {
                    ps.setString(i + 1, part.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.put(rs.getString(1), PREFIX + rs.getString(2));
                    }
                }
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
        try (PreparedStatement ps = c.prepareStatement("SELECT c.memory_id, c.citation FROM citations c"
                + " JOIN entries e ON e.entry_id = c.memory_id WHERE e.stage = 'verified'"
                + " AND (? IS NULL OR e.project = ?)")) {
            ps.setString(1, project);
            ps.setString(2, project);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), PREFIX + rs.getString(2));
                }
            }
        }
        return out;
    }

    /** The memory a citation stands for; empty when it is malformed or not stored. */
    public static Optional<String> memoryOf(Connection c, String citation) throws SQLException {
        Optional<String> code = code(citation);
        if (code.isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT memory_id FROM citations WHERE citation = ?")) {
            ps.setString(1, code.get());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
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
        List<String> memoryIds = strings(c, "SELECT memory_id FROM citations WHERE citation = ?", code.get());
        if (memoryIds.isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT entry_id, entry_type, status, stage, project, session_id, created_ts, title, body, superseded_by
                FROM entries WHERE entry_id = ?""")) {
            ps.setString(1, memoryIds.get(0));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new CitedMemory(PREFIX + code.get(), rs.getString(1), rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getObject(7, LocalDateTime.class), rs.getString(8), rs.getString(9), rs.getString(10)));
            }
        }
    }

    /**
     * The memory's evidence spans in quote order, each with its quoted text read back
     * through {@code sources} — the same source-text reads the aligner found the quote
     * in.
     */
    public static List<CitedSpan> spans(Connection c, String memoryId, SourceTextLookup sources) throws SQLException {
        List<CitedSpan> spans = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT quote_index, event_id, field, span_start, span_end, confidence, method
                FROM evidence_spans WHERE entry_id = ? ORDER BY quote_index""")) {
            ps.setString(1, memoryId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    spans.add(new CitedSpan(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getInt(5),
                            rs.getDouble(6), rs.getString(7), null));
                }
            }
        }
        List<CitedSpan> quoted = new ArrayList<>(spans.size());
        for (CitedSpan s : spans) {
            String text = sources.text(s.eventId(), s.field());
            String quote = text != null && s.end() <= text.length() ? text.substring(s.start(), s.end()) : null;
            quoted.add(new CitedSpan(s.quoteIndex(), s.eventId(), s.field(), s.start(), s.end(), s.confidence(),
                    s.method(), quote));
        }
        return quoted;
    }

    /**
     * The memory's source events, each with the event just before and just after it in
     * its session (time order, then ingest order), every event once: sessions in the
     * order of their first source event, events in session order. Adjacent sources share
     * their neighbours, so an exchange reads prompt, reply and what came around them.
     *
     * <p>
     * Read by point lookups only (an event by its id, a session's events and turns by the
     * session), each a constant equality DuckDB answers from an index: the prompt hook
     * discloses this for its top memories, and a single query joining the memory's
     * sources to their sessions scanned every event and every turn (2-4 s at a million
     * memories, against a budget of 2.5 s for the whole prompt).
     */
    public static List<ContextEvent> sourceContext(Connection c, String memoryId) throws SQLException {
        Map<String, List<Positioned>> sessions = new LinkedHashMap<>(); // "" stands for
                                                                        // events without
                                                                        // a session
        Map<String, LocalDateTime> firstSource = new LinkedHashMap<>();
        java.util.Set<String> sources = new java.util.LinkedHashSet<>(
                strings(c, "SELECT DISTINCT event_id FROM evidence_spans WHERE entry_id = ?", memoryId));
        for (String eventId : sources) {
            Positioned e = positioned(c, "SELECT event_id, seq, ts, session_id FROM events WHERE event_id = ?", eventId)
                .stream()
                .findFirst()
                .orElse(null);
            if (e == null) {
                continue; // erased
            }
            String session = e.sessionId() == null ? "" : e.sessionId();
            firstSource.merge(session, e.ts(), (a, b) -> a.isBefore(b) ? a : b);
            if (session.isEmpty()) {
                sessions.computeIfAbsent(session, k -> new ArrayList<>()).add(e);
            }
            else if (!sessions.containsKey(session)) {
                sessions.put(session, positioned(c,
                        "SELECT event_id, seq, ts, session_id FROM events WHERE session_id = ?", session));
            }
        }
        List<String> order = new ArrayList<>(sessions.keySet());
        order.sort(java.util.Comparator.comparing((String k) -> firstSource.get(k))
            .thenComparing(k -> k.isEmpty() ? null : k,
                    java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder())));
        List<ContextEvent> events = new ArrayList<>();
        for (String session : order) {
            List<Positioned> inOrder = new ArrayList<>(sessions.get(session));
            inOrder.sort(java.util.Comparator.comparing(Positioned::ts).thenComparingLong(Positioned::seq));
            boolean[] picked = new boolean[inOrder.size()];
            for (int i = 0; i < inOrder.size(); i++) {
                if (sources.contains(inOrder.get(i).eventId())) {
                    for (int k = Math.max(0, i - 1); k <= Math.min(inOrder.size() - 1, i + 1); k++) {
                        picked[k] = true;
                    }
                }
            }
            Map<String, String[]> turns = session.isEmpty() ? Map.of() : turnTexts(c, session);
            for (int i = 0; i < inOrder.size(); i++) {
                if (picked[i]) {
                    Positioned e = inOrder.get(i);
                    events.add(details(c, e, i + 1, sources.contains(e.eventId()), turns));
                }
            }
        }
        return events;
    }

    /** An event's place in its session. */
    private record Positioned(String eventId, long seq, LocalDateTime ts, String sessionId) {
    }

    private static List<Positioned> positioned(Connection c, String sql, String key) throws SQLException {
        List<Positioned> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Positioned(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class),
                            rs.getString(4)));
                }
            }
        }
        return rows;
    }

    /**
     * The prompt and the reply text of every turn of a session, by the id of the event
     * each came from.
     */
    private static Map<String, String[]> turnTexts(Connection c, String sessionId) throws SQLException {
        Map<String, String[]> texts = new java.util.HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT prompt_event_id, prompt_text, reply_event_id, reply_text FROM turns WHERE session_id = ?
                ORDER BY turn_id""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keepFirst(texts, rs.getString(1), 0, rs.getString(2));
                    keepFirst(texts, rs.getString(3), 1, rs.getString(4));
                }
            }
        }
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

    private static List<String> strings(Connection c, String sql, String parameter) throws SQLException {
        List<String> values = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
        }
        return values;
    }

    private static ContextEvent details(Connection c, Positioned e, long position, boolean source,
            Map<String, String[]> turns) throws SQLException {
        String eventType;
        String detail;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT event_type,
                       coalesce(json_extract_string(payload, '$.prompt'),
                                json_extract_string(payload, '$.last_assistant_message'),
                                json_extract_string(payload, '$.source'),
                                json_extract_string(payload, '$.reason'),
                                json_extract_string(payload, '$.message'),
                                json_extract_string(payload, '$.tool_name'))
                FROM events WHERE event_id = ?""")) {
            ps.setString(1, e.eventId());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                eventType = rs.getString(1);
                detail = rs.getString(2);
            }
        }
        String tool = null;
        String input = null;
        String output = null;
        try (PreparedStatement ps = c
            .prepareStatement("SELECT tool, input_text, output_text FROM observations WHERE observation_id = ?")) {
            ps.setString(1, e.eventId());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    tool = rs.getString(1);
                    input = rs.getString(2);
                    output = rs.getString(3);
                }
            }
        }
        String[] turn = turns.getOrDefault(e.eventId(), new String[2]);
        return new ContextEvent(e.eventId(), e.sessionId(), e.seq(), position, e.ts(), eventType, source, turn[0],
                turn[1], tool, input, output, detail);
    }

}
