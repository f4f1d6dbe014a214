package dev.codememory.readers.endless;

import dev.codememory.config.db.Sql;
import dev.codememory.config.topic.TopicMaterial;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/** What {@code endless} reports of a project's topics. */
public final class TopicReportQueries {

    /**
     * A topic memory with its citation ({@code mem:} and its code; null before cited).
     */
    public record TopicLine(String memoryId, String citation, String title, String body, LocalDateTime updated) {
    }

    /**
     * How many topics the project has active and superseded, and when its topics were
     * last worked out under the current rules (null: never).
     */
    public record TopicCounts(long active, long superseded, LocalDateTime lastConsolidation) {
    }

    private TopicReportQueries() {
    }

    /** The project's active topics, the most recently continued first. */
    public static List<TopicLine> active(Connection c, String project) throws SQLException {
        return Sql.list(c, """
                SELECT e.entry_id, c.citation, e.title, e.body, e.created_ts FROM entries e
                LEFT JOIN citations c ON c.memory_id = e.entry_id
                WHERE e.entry_type = 'topic' AND e.stage = 'verified' AND e.status = 'active' AND e.project = ?
                ORDER BY e.created_ts DESC, e.entry_id""",
                rs -> new TopicLine(rs.getString(1), rs.getString(2) == null ? null : "mem:" + rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getObject(5, LocalDateTime.class)),
                project);
    }

    public static TopicCounts counts(Connection c, String project) throws SQLException {
        return Sql
            .first(c, """
                    SELECT count(*) FILTER (WHERE status = 'active'), count(*) FILTER (WHERE status = 'superseded'),
                           (SELECT max(done_at) FROM stage_marks WHERE stage = 'topics'
                            AND starts_with(subject_id, 'topics|' || ? || '|' || ? || '|'))
                    FROM entries WHERE entry_type = 'topic' AND project = ?""",
                    rs -> new TopicCounts(rs.getLong(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class)),
                    TopicMaterial.RULES, project, project)
            .orElseThrow();
    }

}
