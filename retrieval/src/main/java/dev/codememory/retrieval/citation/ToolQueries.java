package dev.codememory.retrieval.citation;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The reads the MCP tools make beside the query path and {@code show}: which projects the
 * store knows, which memories a memory replaced (and the superseded ones, for a search of
 * them), and the tasks finished lately. Read only, by key or over the small task tables.
 */
public final class ToolQueries {

    private ToolQueries() {
    }

    /** A task as the tools list it: its newest verified statement's memory id. */
    public record TaskRow(String title, String status, String priority, List<String> blockers, String memoryId,
            LocalDateTime updated) {
    }

    /** A verified memory another one replaced, and the one that replaced it. */
    public record SupersededRow(String memoryId, String kind, LocalDateTime createdTs, String title, String text,
            String supersededBy) {
    }

    /**
     * The project's superseded verified memories (every project's when {@code project} is
     * null), newest first.
     */
    public static List<SupersededRow> superseded(Connection c, String project) throws SQLException {
        return Sql.list(
                c, """
                        SELECT entry_id, entry_type, created_ts, title, body, superseded_by FROM entries
                        WHERE stage = 'verified' AND status = 'superseded' AND (? IS NULL OR project = ?)
                        ORDER BY created_ts DESC, entry_id""", rs -> new SupersededRow(rs.getString(1), rs.getString(2),
                        rs.getObject(3, LocalDateTime.class), rs.getString(4), rs.getString(5), rs.getString(6)),
                project, project);
    }

    /** Every project that has an event or a memory. */
    public static Set<String> projects(Connection c) throws SQLException {
        return new TreeSet<>(Sql.list(c, """
                SELECT DISTINCT project FROM entries WHERE project IS NOT NULL
                UNION SELECT DISTINCT project FROM events WHERE project IS NOT NULL""", rs -> rs.getString(1)));
    }

    /** The memories this one superseded (their ids), oldest first. */
    public static List<String> supersededBy(Connection c, String memoryId) throws SQLException {
        return Sql.list(c, "SELECT entry_id FROM entries WHERE superseded_by = ? ORDER BY created_ts, entry_id",
                rs -> rs.getString(1), memoryId);
    }

    /**
     * The project's tasks in the given statuses (all projects when {@code project} is
     * null), each with its newest verified statement, newest first, at most
     * {@code limit}; only those stated at or after {@code since} when it is not null.
     */
    public static List<TaskRow> tasks(Connection c, String project, Set<String> statuses, LocalDateTime since,
            int limit) throws SQLException {
        String sql = """
                WITH stated AS (
                  SELECT ed.dst_id AS task_id, arg_max(en.entry_id, en.created_ts) AS entry_id,
                         max(en.created_ts) AS ts
                  FROM edges ed JOIN entries en ON en.entry_id = ed.src_id
                  WHERE ed.rel_type = 'evidence_of' AND en.stage = 'verified'
                  GROUP BY ed.dst_id)
                SELECT t.title, t.status, coalesce(json_extract_string(t.current_json, '$.priority'), ''),
                       (SELECT string_agg(b.title, chr(31) ORDER BY b.title) FROM edges e
                        JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by'),
                       stated.entry_id, stated.ts
                FROM entities t JOIN stated ON stated.task_id = t.entity_id
                WHERE t.entity_type = 'task' AND (? IS NULL OR t.project = ?) AND list_contains(?, t.status)
                  AND (? IS NULL OR stated.ts >= ?)
                ORDER BY stated.ts DESC, t.entity_id
                LIMIT ?""";
        return Sql.list(c, sql, rs -> {
            String blockers = rs.getString(4);
            return new TaskRow(rs.getString(1), rs.getString(2), rs.getString(3),
                    blockers == null ? List.of() : List.of(blockers.split("\u001f")), rs.getString(5),
                    rs.getObject(6, LocalDateTime.class));
        }, project, project, c.createArrayOf("VARCHAR", statuses.toArray()), since, since, limit);
    }

}
