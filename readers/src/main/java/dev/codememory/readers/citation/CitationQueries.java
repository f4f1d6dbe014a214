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
 * Reads the stored citations ({@code citations}: 6-character code ↔ memory id) and what {@code show} prints for one:
 * the memory, its evidence spans with the quoted text, and its source events with their neighbours.
 */
public final class CitationQueries {

    public static final String PREFIX = "mem:";

    private static final Pattern CODE = Pattern.compile("[A-Za-z0-9_-]{6}");
    private static final int IDS_PER_STATEMENT = 1_000;

    private CitationQueries() {
    }

    /** The 6-character code of {@code mem:abc123}, {@code [mem:abc123]} or {@code abc123}; empty when malformed. */
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

    /** The stored citation ({@code mem:xxxxxx}) of each of the memories that has one, by memory id. */
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

    /** The stored citation of every verified memory of a project (of every project when it is null). */
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

    /** The cited memory, whatever its stage and status; empty when the citation is malformed or unknown. */
    public static Optional<CitedMemory> memory(Connection c, String citation) throws SQLException {
        Optional<String> code = code(citation);
        if (code.isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.citation, e.entry_id, e.entry_type, e.status, e.stage, e.project, e.session_id, e.created_ts,
                       e.title, e.body, e.superseded_by
                FROM citations t JOIN entries e ON e.entry_id = t.memory_id WHERE t.citation = ?""")) {
            ps.setString(1, code.get());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new CitedMemory(PREFIX + rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                        rs.getObject(8, LocalDateTime.class), rs.getString(9), rs.getString(10), rs.getString(11)));
            }
        }
    }

    /**
     * The memory's evidence spans in quote order, each with its quoted text read back through {@code sources} —
     * the same source-text reads the aligner found the quote in.
     */
    public static List<CitedSpan> spans(Connection c, String memoryId, SourceTextLookup sources) throws SQLException {
        List<CitedSpan> spans = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT quote_index, event_id, field, span_start, span_end, confidence, method
                FROM evidence_spans WHERE entry_id = ? ORDER BY quote_index""")) {
            ps.setString(1, memoryId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    spans.add(new CitedSpan(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getInt(4),
                            rs.getInt(5), rs.getDouble(6), rs.getString(7), null));
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
     * The memory's source events, each with the event just before and just after it in its session (time order,
     * then ingest order), every event once: sessions in the order of their first source event, events in session
     * order. Adjacent sources share their neighbours, so an exchange reads prompt, reply and what came around them.
     */
    public static List<ContextEvent> sourceContext(Connection c, String memoryId) throws SQLException {
        List<ContextEvent> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                WITH src AS (SELECT DISTINCT event_id FROM evidence_spans WHERE entry_id = ?),
                sess AS (SELECT DISTINCT session_id FROM events
                         WHERE event_id IN (SELECT event_id FROM src) AND session_id IS NOT NULL),
                ordered AS (
                  SELECT e.event_id, e.session_id, e.seq, e.ts, e.event_type, e.payload,
                         row_number() OVER (PARTITION BY e.session_id ORDER BY e.ts, e.seq) AS pos,
                         e.event_id IN (SELECT event_id FROM src) AS is_source
                  FROM events e
                  WHERE e.session_id IN (SELECT session_id FROM sess) OR e.event_id IN (SELECT event_id FROM src)),
                firsts AS (SELECT session_id, min(ts) AS first_ts FROM ordered WHERE is_source GROUP BY session_id),
                picked AS (
                  SELECT o.*, f.first_ts FROM ordered o
                  JOIN firsts f ON f.session_id IS NOT DISTINCT FROM o.session_id
                  WHERE EXISTS (SELECT 1 FROM ordered s
                                WHERE s.is_source AND s.session_id IS NOT DISTINCT FROM o.session_id
                                  AND o.pos BETWEEN s.pos - 1 AND s.pos + 1))
                SELECT p.event_id, p.session_id, p.seq, p.pos, p.ts, p.event_type, p.is_source,
                       (SELECT first(t.prompt_text) FROM turns t WHERE t.prompt_event_id = p.event_id),
                       (SELECT first(t.reply_text) FROM turns t WHERE t.reply_event_id = p.event_id),
                       o.tool, o.input_text, o.output_text,
                       coalesce(json_extract_string(p.payload, '$.prompt'),
                                json_extract_string(p.payload, '$.last_assistant_message'),
                                json_extract_string(p.payload, '$.source'),
                                json_extract_string(p.payload, '$.reason'),
                                json_extract_string(p.payload, '$.message'),
                                json_extract_string(p.payload, '$.tool_name'))
                FROM picked p LEFT JOIN observations o ON o.observation_id = p.event_id
                ORDER BY p.first_ts, p.session_id, p.pos""")) {
            ps.setString(1, memoryId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new ContextEvent(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getObject(5, LocalDateTime.class), rs.getString(6), rs.getBoolean(7), rs.getString(8),
                            rs.getString(9), rs.getString(10), rs.getString(11), rs.getString(12),
                            rs.getString(13)));
                }
            }
        }
        return events;
    }
}
