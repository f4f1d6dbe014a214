package dev.codememory.readers.facts;

import dev.codememory.config.db.Sql;
import dev.codememory.config.facts.ProjectActivity.Edit;
import dev.codememory.config.facts.ProjectActivity.Run;
import dev.codememory.config.facts.ProjectActivity;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The read side of the project-facts stage: which projects have new activity, and that
 * activity.
 */
public final class ProjectFactsQueries {

    /**
     * Projects whose observations changed (in number) since their facts were last worked
     * out.
     */
    public static final String PROJECTS_TO_FACT = """
            WITH extent AS (SELECT project, count(*) AS n FROM observations GROUP BY project)
            SELECT x.project FROM extent x
            WHERE NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'facts'
                              AND m.subject_id = 'facts|' || x.project || '|' || x.n)
            ORDER BY x.project""";

    private ProjectFactsQueries() {
    }

    /**
     * The project's Bash calls that did not fail and its successful edits, in time order.
     */
    public static ProjectActivity activity(Connection c, String project) throws SQLException {
        long extent = Sql.first(c, "SELECT count(*) FROM observations WHERE project = ?", rs -> rs.getLong(1), project)
            .orElseThrow();
        List<Run> runs = Sql.list(c, """
                SELECT observation_id, session_id, ts, command, left(coalesce(output_text, ''), 200)
                FROM observations WHERE project = ? AND tool = 'Bash' AND NOT failed AND command IS NOT NULL
                ORDER BY ts, observation_id""", rs -> new Run(rs.getString(1), rs.getString(2),
                rs.getObject(3, LocalDateTime.class), rs.getString(4), rs.getString(5)), project);
        List<Edit> edits = Sql.list(c, """
                SELECT observation_id, session_id, ts, json_extract_string(files, '$[0]')
                FROM observations WHERE project = ? AND NOT failed
                  AND tool IN ('Edit', 'MultiEdit', 'Write', 'NotebookEdit') AND json_array_length(files) > 0
                ORDER BY ts, observation_id""",
                rs -> new Edit(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class), rs.getString(4)),
                project);
        return new ProjectActivity(project, extent, runs, edits);
    }

}
