package dev.codememory.readers.team;

import dev.codememory.config.json.Json;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The reads of {@code --job=publish} on DuckDB: which verified memories wait to be
 * published, which published ones must be withdrawn, and the memories themselves, a page
 * at a time (see {@link PendingItemReader}).
 */
public final class PublishQueries {

    private PublishQueries() {
    }

    /**
     * Verified, active, cited memories of these kinds and projects that have a vector of
     * this embedding version (the team store searches by it) and are not published yet;
     * oldest first. Keys and times only.
     */
    public static String pendingSql(Collection<String> projects, Collection<String> kinds, String embeddingVersion) {
        return "SELECT e.entry_id, e.created_ts FROM entries e WHERE e.stage = 'verified' AND e.status = 'active'"
                + " AND e.entry_type IN " + literals(kinds) + " AND e.project IN " + literals(projects)
                + " AND EXISTS (SELECT 1 FROM vector_outbox o WHERE o.memory_id = e.entry_id AND o.op = 'upsert'"
                + " AND o.status = 'done' AND o.embedding_version = " + literal(embeddingVersion) + ")"
                + " AND EXISTS (SELECT 1 FROM citations ci WHERE ci.memory_id = e.entry_id)"
                + " AND NOT EXISTS (SELECT 1 FROM team_published p WHERE p.memory_id = e.entry_id)"
                + " ORDER BY e.created_ts, e.entry_id";
    }

    /**
     * Published memories that are no longer verified and active here (forgotten, merged
     * into another) and have no tombstone yet.
     */
    public static final String WITHDRAWN_SQL = """
            SELECT p.memory_id FROM team_published p WHERE p.withdrawn_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.entry_id = p.memory_id
                            AND e.stage = 'verified' AND e.status = 'active')
            ORDER BY p.published_at, p.memory_id""";

    /** The memories of the current page, in page order, with their evidence quotes. */
    public static List<SharedMemory> page(Connection c) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT e.entry_id, e.project, e.entry_type, e.title, e.body, e.created_ts, ci.citation,
                       CAST(e.quotes_json AS VARCHAR)
                FROM %s k JOIN entries e ON e.entry_id = k.key
                JOIN citations ci ON ci.memory_id = e.entry_id
                ORDER BY k.ord""".formatted(PendingItemReader.KEYS_TABLE))) {
            while (rs.next()) {
                rows.add(new Object[] { rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getObject(6, LocalDateTime.class), rs.getString(7), rs.getString(8) });
            }
        }
        Map<String, List<Map<?, ?>>> quotes = new HashMap<>();
        List<String> toolEvents = new ArrayList<>();
        for (Object[] row : rows) {
            List<Map<?, ?>> parsed = new ArrayList<>();
            if (row[7] != null && Json.parse((String) row[7]) instanceof List<?> list) {
                for (Object q : list) {
                    if (q instanceof Map<?, ?> m && m.get("text") instanceof String
                            && m.get("field") instanceof String) {
                        parsed.add(m);
                        if (((String) m.get("field")).startsWith("tool_") && m.get("eventId") instanceof String id) {
                            toolEvents.add(id);
                        }
                    }
                }
            }
            quotes.put((String) row[0], parsed);
        }
        Map<String, String> tools = toolNames(c, toolEvents);
        List<SharedMemory> page = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            List<SharedQuote> shared = new ArrayList<>();
            List<Map<?, ?>> own = quotes.get((String) row[0]);
            for (int i = 0; i < own.size(); i++) {
                Map<?, ?> q = own.get(i);
                shared.add(new SharedQuote(i, (String) q.get("field"), tools.get(q.get("eventId")),
                        (String) q.get("text")));
            }
            page.add(new SharedMemory((String) row[0], (String) row[1], (String) row[2], (String) row[3],
                    (String) row[4], (LocalDateTime) row[5], (String) row[6], shared));
        }
        return page;
    }

    /** The ids of the current page's memories to withdraw, in page order. */
    public static List<String> withdrawnPage(Connection c) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT key FROM " + PendingItemReader.KEYS_TABLE + " ORDER BY ord")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    private static Map<String, String> toolNames(Connection c, List<String> eventIds) throws SQLException {
        Map<String, String> tools = new HashMap<>();
        if (eventIds.isEmpty()) {
            return tools;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT event_id, json_extract_string(payload, '$.tool_name') FROM events WHERE event_id IN "
                                + literals(eventIds))) {
            while (rs.next()) {
                if (rs.getString(2) != null) {
                    tools.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return tools;
    }

    /** {@code ('a', 'b')}; {@code (NULL)} for none (matches nothing). */
    static String literals(Collection<String> values) {
        if (values.isEmpty()) {
            return "(NULL)";
        }
        return values.stream().distinct().map(PublishQueries::literal).collect(Collectors.joining(", ", "(", ")"));
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

}
