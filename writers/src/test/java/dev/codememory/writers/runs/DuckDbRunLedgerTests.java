package dev.codememory.writers.runs;

import dev.codememory.config.db.SchemaMigrator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbRunLedgerTests {

    private static final LocalDateTime STARTED = LocalDateTime.of(2025, 6, 1, 10, 0, 0, 123_456_000);

    private static final LocalDateTime FINISHED = LocalDateTime.of(2025, 6, 1, 10, 0, 42, 654_321_000);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbRunLedger ledger;

    @BeforeEach
    void openDatabase() {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        ledger = new DuckDbRunLedger(session::connection);
    }

    @AfterEach
    void closeDatabase() {
        session.close();
    }

    @Test
    void buildIdIsJobNameAndExecutionId() {
        assertThat(DuckDbRunLedger.buildId("ingestJob", 7)).isEqualTo("ingestJob-7");
    }

    @Test
    void jobStartedRecordsARunningBuild() throws SQLException {
        ledger.jobStarted("ingestJob", 7, STARTED);

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT build_id, job_name, job_execution_id, started_at, finished_at,"
                        + " status, schema_version, error FROM build_runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("build_id")).isEqualTo("ingestJob-7");
            assertThat(rs.getString("job_name")).isEqualTo("ingestJob");
            assertThat(rs.getLong("job_execution_id")).isEqualTo(7);
            assertThat(rs.getObject("started_at", LocalDateTime.class)).isEqualTo(STARTED);
            assertThat(rs.getObject("finished_at")).isNull();
            assertThat(rs.getString("status")).isEqualTo("running");
            assertThat(rs.getInt("schema_version")).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(rs.getString("error")).isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void jobFinishedCompletesTheBuild() throws SQLException {
        ledger.jobStarted("ingestJob", 7, STARTED);
        ledger.jobStarted("otherJob", 8, STARTED);

        ledger.jobFinished("ingestJob", 7, FINISHED, "COMPLETED", null);

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT build_id, job_name, job_execution_id, started_at, finished_at,"
                        + " status, schema_version, error FROM build_runs ORDER BY build_id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("build_id")).isEqualTo("ingestJob-7");
            assertThat(rs.getString("job_name")).isEqualTo("ingestJob");
            assertThat(rs.getLong("job_execution_id")).isEqualTo(7);
            assertThat(rs.getObject("started_at", LocalDateTime.class)).isEqualTo(STARTED);
            assertThat(rs.getObject("finished_at", LocalDateTime.class)).isEqualTo(FINISHED);
            assertThat(rs.getString("status")).isEqualTo("COMPLETED");
            assertThat(rs.getInt("schema_version")).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(rs.getString("error")).isNull();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("build_id")).isEqualTo("otherJob-8");
            assertThat(rs.getString("job_name")).isEqualTo("otherJob");
            assertThat(rs.getLong("job_execution_id")).isEqualTo(8);
            assertThat(rs.getObject("started_at", LocalDateTime.class)).isEqualTo(STARTED);
            assertThat(rs.getObject("finished_at")).isNull();
            assertThat(rs.getString("status")).isEqualTo("running");
            assertThat(rs.getInt("schema_version")).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(rs.getString("error")).isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void failedJobKeepsItsError() throws SQLException {
        ledger.jobStarted("ingestJob", 9, STARTED);

        ledger.jobFinished("ingestJob", 9, FINISHED, "FAILED", "DatabaseException: cannot write 3 ingested lines");

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT build_id, finished_at, status, error FROM build_runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ingestJob-9");
            assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(FINISHED);
            assertThat(rs.getString(3)).isEqualTo("FAILED");
            assertThat(rs.getString(4)).isEqualTo("DatabaseException: cannot write 3 ingested lines");
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void jobStartedAgainResetsTheBuild() throws SQLException {
        ledger.jobStarted("ingestJob", 7, STARTED);
        ledger.jobFinished("ingestJob", 7, FINISHED, "FAILED", "boom");

        ledger.jobStarted("ingestJob", 7, FINISHED);

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st
                    .executeQuery("SELECT build_id, started_at, finished_at, status, error FROM build_runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ingestJob-7");
            assertThat(rs.getObject(2, LocalDateTime.class)).isEqualTo(FINISHED);
            assertThat(rs.getObject(3)).isNull();
            assertThat(rs.getString(4)).isEqualTo("running");
            assertThat(rs.getString(5)).isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void jobFinishedWithoutAStartRecordsNothing() throws SQLException {
        ledger.jobFinished("ingestJob", 3, FINISHED, "COMPLETED", null);

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM build_runs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isZero();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void stepFinishedRecordsCountsAndTime() throws SQLException {
        LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);

        ledger.stepFinished("ingestJob-7",
                new DuckDbRunLedger.StepMetrics("ingestSpoolStep", 11, "COMPLETED", 1000, 990, 3, 7, 10, 1234));
        ledger.stepFinished("ingestJob-7",
                new DuckDbRunLedger.StepMetrics("deleteSpoolStep", 12, "COMPLETED", 0, 0, 0, 0, 1, 5));

        LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT build_id, step_name, step_execution_id, status, read_count,"
                        + " write_count, filter_count, skip_count, commit_count, duration_ms, recorded_at"
                        + " FROM pipeline_metrics ORDER BY step_execution_id")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("build_id")).isEqualTo("ingestJob-7");
            assertThat(rs.getString("step_name")).isEqualTo("ingestSpoolStep");
            assertThat(rs.getLong("step_execution_id")).isEqualTo(11);
            assertThat(rs.getString("status")).isEqualTo("COMPLETED");
            assertThat(rs.getLong("read_count")).isEqualTo(1000);
            assertThat(rs.getLong("write_count")).isEqualTo(990);
            assertThat(rs.getLong("filter_count")).isEqualTo(3);
            assertThat(rs.getLong("skip_count")).isEqualTo(7);
            assertThat(rs.getLong("commit_count")).isEqualTo(10);
            assertThat(rs.getLong("duration_ms")).isEqualTo(1234);
            assertThat(rs.getObject("recorded_at", LocalDateTime.class)).isBetween(before, after);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("build_id")).isEqualTo("ingestJob-7");
            assertThat(rs.getString("step_name")).isEqualTo("deleteSpoolStep");
            assertThat(rs.getLong("step_execution_id")).isEqualTo(12);
            assertThat(rs.getString("status")).isEqualTo("COMPLETED");
            assertThat(rs.getLong("read_count")).isZero();
            assertThat(rs.getLong("write_count")).isZero();
            assertThat(rs.getLong("filter_count")).isZero();
            assertThat(rs.getLong("skip_count")).isZero();
            assertThat(rs.getLong("commit_count")).isEqualTo(1);
            assertThat(rs.getLong("duration_ms")).isEqualTo(5);
            assertThat(rs.getObject("recorded_at", LocalDateTime.class)).isBetween(before, after);
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void stepFinishedAgainReplacesItsRow() throws SQLException {
        ledger.stepFinished("ingestJob-7",
                new DuckDbRunLedger.StepMetrics("ingestSpoolStep", 11, "FAILED", 500, 400, 0, 0, 4, 100));

        ledger.stepFinished("ingestJob-7",
                new DuckDbRunLedger.StepMetrics("ingestSpoolStep", 11, "COMPLETED", 1000, 990, 3, 7, 10, 1234));

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT build_id, step_execution_id, status, read_count, write_count,"
                        + " filter_count, skip_count, commit_count, duration_ms FROM pipeline_metrics")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ingestJob-7");
            assertThat(rs.getLong(2)).isEqualTo(11);
            assertThat(rs.getString(3)).isEqualTo("COMPLETED");
            assertThat(rs.getLong(4)).isEqualTo(1000);
            assertThat(rs.getLong(5)).isEqualTo(990);
            assertThat(rs.getLong(6)).isEqualTo(3);
            assertThat(rs.getLong(7)).isEqualTo(7);
            assertThat(rs.getLong(8)).isEqualTo(10);
            assertThat(rs.getLong(9)).isEqualTo(1234);
            assertThat(rs.next()).isFalse();
        }
    }

}
