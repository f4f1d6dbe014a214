package dev.codememory.writers.runs;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.SchemaMigrator;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.function.Supplier;

/**
 * Records each job run in {@code build_runs} and each step's counts and time in
 * {@code pipeline_metrics}.
 */
public class DuckDbRunLedger {

    private final Supplier<? extends Connection> connections;

    public DuckDbRunLedger(Supplier<? extends Connection> connections) {
        this.connections = connections;
    }

    public static String buildId(String jobName, long jobExecutionId) {
        return jobName + "-" + jobExecutionId;
    }

    public void jobStarted(String jobName, long jobExecutionId, LocalDateTime startedAt) {
        update("INSERT OR REPLACE INTO build_runs (build_id, job_name, job_execution_id, started_at, finished_at,"
                + " status, schema_version, error) VALUES (?, ?, ?, ?, NULL, 'running', ?, NULL)",
                buildId(jobName, jobExecutionId), jobName, jobExecutionId, startedAt, SchemaMigrator.latestVersion());
    }

    public void jobFinished(String jobName, long jobExecutionId, LocalDateTime finishedAt, String status,
            String error) {
        update("UPDATE build_runs SET finished_at = ?, status = ?, error = ? WHERE build_id = ?", finishedAt, status,
                error, buildId(jobName, jobExecutionId));
    }

    public void stepFinished(String buildId, StepMetrics m) {
        update("INSERT OR REPLACE INTO pipeline_metrics (build_id, step_name, step_execution_id, status, read_count,"
                + " write_count, filter_count, skip_count, commit_count, duration_ms, recorded_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() AT TIME ZONE 'UTC')", buildId, m.stepName(),
                m.stepExecutionId(), m.status(), m.readCount(), m.writeCount(), m.filterCount(), m.skipCount(),
                m.commitCount(), m.durationMs());
    }

    /** Counts and time of one step execution. */
    public record StepMetrics(String stepName, long stepExecutionId, String status, long readCount, long writeCount,
            long filterCount, long skipCount, long commitCount, long durationMs) {
    }

    private void update(String sql, Object... params) {
        try (Connection connection = connections.get()) {
            Sql.update(connection, sql, params);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot record run: " + e.getMessage(), e);
        }
    }

}
