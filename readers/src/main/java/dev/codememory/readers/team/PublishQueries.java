package dev.codememory.readers.team;

import dev.codememory.config.db.Sql;
import dev.codememory.config.json.Json;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
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
     * The kinds that leave only when the user marked them for the team
     * ({@code team_marks}): a preference is one person's way of working until they say it
     * is the team's.
     */
    public static final String MARKED_KINDS = "('preference')";

    /** The condition that a memory {@code e} of a kind that waits for a mark has one. */
    private static final String MARKED = "(e.entry_type NOT IN " + MARKED_KINDS
            + " OR EXISTS (SELECT 1 FROM team_marks m WHERE m.memory_id = e.entry_id))";

    /**
     * Verified, active, cited memories of these kinds and projects that have a vector of
     * this embedding version (the team store searches by it) and are not published yet (a
     * preference only when it is marked for the team); oldest first. Keys and times only.
     */
    public static String pendingSql(Collection<String> projects, Collection<String> kinds, String embeddingVersion) {
        return "SELECT e.entry_id, e.created_ts FROM entries e WHERE e.stage = 'verified' AND e.status = 'active'"
                + " AND " + MARKED + " AND e.entry_type IN " + literals(kinds) + " AND e.project IN "
                + literals(projects)
                + " AND EXISTS (SELECT 1 FROM vector_outbox o WHERE o.memory_id = e.entry_id AND o.op = 'upsert'"
                + " AND o.status = 'done' AND o.embedding_version = " + literal(embeddingVersion) + ")"
                + " AND EXISTS (SELECT 1 FROM citations ci WHERE ci.memory_id = e.entry_id)"
                + " AND NOT EXISTS (SELECT 1 FROM team_published p WHERE p.memory_id = e.entry_id)"
                + " ORDER BY e.created_ts, e.entry_id";
    }

    /**
     * Published memories that are no longer verified and active here (forgotten, merged
     * into another) or no longer marked for the team (a preference unmarked), and have no
     * tombstone yet.
     */
    public static final String WITHDRAWN_SQL = """
            SELECT p.memory_id FROM team_published p WHERE p.withdrawn_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.entry_id = p.memory_id
                            AND e.stage = 'verified' AND e.status = 'active' AND %s)
            ORDER BY p.published_at, p.memory_id""".formatted(MARKED);

    /**
     * The memories of the current page, in page order, with their evidence quotes; a
     * composed memory (a topic) with the verified, active, cited memories its lines cite.
     */
    public static List<SharedMemory> page(Connection c) throws SQLException {
        List<Row> rows = rows(c, """
                SELECT NULL, e.entry_id, e.project, e.entry_type, e.title, e.body, e.created_ts, e.session_id,
                       ci.citation, CAST(e.quotes_json AS VARCHAR)
                FROM %s k JOIN entries e ON e.entry_id = k.key
                JOIN citations ci ON ci.memory_id = e.entry_id
                ORDER BY k.ord""".formatted(PendingItemReader.KEYS_TABLE));
        List<Row> cited = rows(c, """
                SELECT d.src_id, e.entry_id, e.project, e.entry_type, e.title, e.body, e.created_ts, e.session_id,
                       ci.citation, CAST(e.quotes_json AS VARCHAR)
                FROM %s k JOIN edges d ON d.src_id = k.key AND d.rel_type = 'summarizes'
                JOIN entries e ON e.entry_id = d.dst_id AND e.stage = 'verified' AND e.status = 'active'
                JOIN citations ci ON ci.memory_id = e.entry_id
                ORDER BY k.ord, e.created_ts, e.entry_id""".formatted(PendingItemReader.KEYS_TABLE));
        List<String> toolEvents = new ArrayList<>();
        for (Row row : rows) {
            row.toolEvents(toolEvents);
        }
        for (Row row : cited) {
            row.toolEvents(toolEvents);
        }
        Map<String, String> tools = toolNames(c, toolEvents);
        Map<String, List<SharedMemory>> cites = new HashMap<>();
        for (Row row : cited) {
            cites.computeIfAbsent(row.citedBy(), k -> new ArrayList<>()).add(row.memory(tools, List.of()));
        }
        List<SharedMemory> page = new ArrayList<>(rows.size());
        for (Row row : rows) {
            page.add(row.memory(tools, cites.getOrDefault(row.id(), List.of())));
        }
        return page;
    }

    /** A memory as read, its quotes parsed (those with a text and a field). */
    private record Row(String citedBy, String id, String project, String kind, String title, String body,
            LocalDateTime createdTs, String sessionId, String citation, List<Map<?, ?>> quotes) {

        void toolEvents(List<String> out) {
            for (Map<?, ?> q : quotes) {
                if (((String) q.get("field")).startsWith("tool_") && q.get("eventId") instanceof String event) {
                    out.add(event);
                }
            }
        }

        SharedMemory memory(Map<String, String> tools, List<SharedMemory> cites) {
            List<SharedQuote> shared = new ArrayList<>();
            for (int i = 0; i < quotes.size(); i++) {
                Map<?, ?> q = quotes.get(i);
                shared.add(new SharedQuote(i, (String) q.get("field"), tools.get(q.get("eventId")),
                        (String) q.get("text")));
            }
            return new SharedMemory(id, project, kind, title, body, createdTs, citation, shared, sessionId, cites);
        }
    }

    private static List<Row> rows(Connection c, String sql) throws SQLException {
        return Sql.list(c, sql, rs -> {
            List<Map<?, ?>> quotes = new ArrayList<>();
            if (rs.getString(10) != null && Json.parse(rs.getString(10)) instanceof List<?> list) {
                for (Object q : list) {
                    if (q instanceof Map<?, ?> m && m.get("text") instanceof String
                            && m.get("field") instanceof String) {
                        quotes.add(m);
                    }
                }
            }
            return new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                    rs.getString(6), rs.getObject(7, LocalDateTime.class), rs.getString(8), rs.getString(9), quotes);
        });
    }

    /** The ids of the current page's memories to withdraw, in page order. */
    public static List<String> withdrawnPage(Connection c) throws SQLException {
        return Sql.list(c, "SELECT key FROM " + PendingItemReader.KEYS_TABLE + " ORDER BY ord", rs -> rs.getString(1));
    }

    private static Map<String, String> toolNames(Connection c, List<String> eventIds) throws SQLException {
        Map<String, String> tools = new HashMap<>();
        if (eventIds.isEmpty()) {
            return tools;
        }
        Sql.each(c, "SELECT event_id, json_extract_string(payload, '$.tool_name') FROM events WHERE event_id IN "
                + literals(eventIds), rs -> {
                    if (rs.getString(2) != null) {
                        tools.put(rs.getString(1), rs.getString(2));
                    }
                });
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
