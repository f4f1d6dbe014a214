package dev.codememory.readers.task;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.readers.graduation.EntryQueries;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The read side of the task stage ({@code resolveTasksStep}): the task and work entries
 * it has not handled (loaded with {@link EntryQueries#entries}), and the task events and
 * statements already stored.
 */
public final class TaskQueries {

    /** Verified task and work entries the task stage has not handled. */
    public static final String TASK_ENTRIES_TO_RESOLVE = """
            SELECT e.entry_id, e.created_ts FROM entries e
            WHERE e.entry_type IN ('task', 'work') AND e.stage = 'verified'
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.subject_id = e.entry_id AND m.stage = 'tasks')
            ORDER BY e.created_ts, e.entry_id""";

    private TaskQueries() {
    }

    /** Every stored task event, in the order it was appended. */
    public static List<GraphUpdate.TaskEventRow> taskEvents(Connection c) throws SQLException {
        return Sql.list(c, """
                SELECT dedupe_key, event_type, entity_id, payload::VARCHAR, ts, source_entry
                FROM task_events ORDER BY seq""", rs -> new GraphUpdate.TaskEventRow(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getObject(5, LocalDateTime.class), rs.getString(6)));
    }

    /** An active task entry and the task it speaks of (its {@code evidence_of} edge). */
    public record TaskEvidence(String taskId, String entryId, LocalDateTime ts) {
    }

    /** Every active task entry linked to its task. */
    public static List<TaskEvidence> taskEvidence(Connection c) throws SQLException {
        return Sql.list(c, """
                SELECT ed.dst_id, en.entry_id, en.created_ts FROM edges ed JOIN entries en ON en.entry_id = ed.src_id
                WHERE ed.rel_type = 'evidence_of' AND en.entry_type = 'task' AND en.status = 'active'
                ORDER BY en.created_ts, en.entry_id""",
                rs -> new TaskEvidence(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class)));
    }

}
