package dev.codememory.writers.runs;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.SchemaMigrator;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
                + " status, schema_version, error) VALUES (?, ?, ?, ?, NULL, 'running', ?, NULL)", ps -> {
                    ps.setString(1, buildId(jobName, jobExecutionId));
                    ps.setString(2, jobName);
                    ps.setLong(3, jobExecutionId);
                    ps.setObject(4, startedAt);
                    ps.setInt(5, SchemaMigrator.latestVersion());
                });
    }

    public void jobFinished(String jobName, long jobExecutionId, LocalDateTime finishedAt, String status,
            String error) {
        update("UPDATE build_runs SET finished_at = ?, status = ?, error = ? WHERE build_id = ?", ps -> {
            ps.setObject(1, finishedAt);
            ps.setString(2, status);
            ps.setString(3, error);
            ps.setString(4, buildId(jobName, jobExecutionId));
        });
    }

    public void stepFinished(String buildId, StepMetrics m) {
        update("INSERT OR REPLACE INTO pipeline_metrics (build_id, step_name, step_execution_id, status, read_count,"
                + " write_count, filter_count, skip_count, commit_count, duration_ms, recorded_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() AT TIME ZONE 'UTC')", ps -> {
                    ps.setString(1, buildId);
                    ps.setString(2, m.stepName());
                    ps.setLong(3, m.stepExecutionId());
                    ps.setString(4, m.status());
                    ps.setLong(5, m.readCount());
                    ps.setLong(6, m.writeCount());
                    ps.setLong(7, m.filterCount());
                    ps.setLong(8, m.skipCount());
                    ps.setLong(9, m.commitCount());
                    ps.setLong(10, m.durationMs());
                });
    }

    /** Counts and time of one step execution. */
    public record StepMetrics(String stepName, long stepExecutionId, String status, long readCount, long writeCount,
            long filterCount, long skipCount, long commitCount, long durationMs) {
    }

    private interface Binder {

        void bind(PreparedStatement ps) throws SQLException;

    }

    private void update(String sql, Binder binder) {
        try (Connection connection = connections.get(); PreparedStatement ps = connection.prepareStatement(sql)) {
            binder.bind(ps);
            ps.executeUpdate();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot record run: " + e.getMessage(), e);
        }
    }

}
