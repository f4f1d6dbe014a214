package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.fixtures.GeneratedSessions;
import dev.codememory.jobs.servers.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spring Batch's job repository on PostgreSQL ({@code spring.datasource.*} in the home's
 * application.yml) instead of the SQLite file: the schema is created on first use, and a
 * job killed with {@code kill -9} is recovered and resumed at its chunk by the rerun.
 * Needs {@value TestServers#POSTGRES_URL}; each test has a schema of its own.
 */
class PostgresJobRepositoryIntegrationTests {

    @TempDir
    Path tmp;

    private String schema;

    @BeforeEach
    void createSchema() throws SQLException {
        schema = "cm_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute("CREATE SCHEMA " + schema);
    }

    @AfterEach
    void dropSchema() throws SQLException {
        execute("DROP SCHEMA " + schema + " CASCADE");
    }

    @Test
    void killedDuringAlignmentResumesAtItsChunkWithTheRepositoryOnPostgres() throws Exception {
        Path hooks = tmp.resolve("generated.jsonl");
        GeneratedSessions.write(hooks, 3_000);
        Path reference = tmp.resolve("reference");
        Path killed = tmp.resolve("killed");
        Files.createDirectories(killed);
        Files.writeString(killed.resolve("application.yml"), """
                spring.datasource.url: "%s"
                spring.datasource.driver-class-name: org.postgresql.Driver
                """.formatted(url()));
        for (Path home : List.of(reference, killed)) {
            assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();
        }
        assertThat(JobsJar.run(reference, new byte[0], "--job=graduate").exit()).isZero();

        Process job = JobsJar.start(killed, tmp.resolve("killed.log"), "--job=graduate");
        long deadline = System.currentTimeMillis() + 300_000;
        while (aligned(0) == 0 && job.isAlive() && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(job.isAlive()).as("still aligning when killed").isTrue();
        job.destroyForcibly().waitFor();
        long alignedBeforeKill = aligned(0);
        assertThat(alignedBeforeKill).isPositive();
        assertThat(query("SELECT status FROM batch_job_execution")).containsExactly("STARTED");
        // the SQLite file the home prepares stays empty
        assertThat(Files.size(killed.resolve("batch-metadata.sqlite"))).isZero();

        JobsJar.Result rerun = JobsJar.run(killed, new byte[0], "--job=graduate");

        assertThat(rerun.exit()).as(rerun.stdout() + rerun.stderr()).isZero();
        assertThat(GraduationJobIntegrationTests.counts(killed))
            .isEqualTo(GraduationJobIntegrationTests.counts(reference));
        assertThat(query("SELECT status FROM batch_job_execution ORDER BY job_execution_id")).containsExactly("FAILED",
                "COMPLETED");
        // alignment went on from its last committed chunk: the rerun aligned at most what
        // the killed run had left (less if the kill fell between a chunk's commit in
        // DuckDB and its count in the repository)
        List<List<Object>> uninterrupted = JobsJar.sqliteRows(reference,
                "SELECT WRITE_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'alignEvidenceStep'");
        long alignedInOneRun = ((Number) uninterrupted.get(0).get(0)).longValue();
        assertThat(aligned(1)).isLessThanOrEqualTo(alignedInOneRun - alignedBeforeKill);
    }

    /**
     * What the {@code n}-th execution of the alignment step wrote (0 before it ran).
     */
    private long aligned(int n) {
        try {
            List<String> rows = query("SELECT write_count FROM batch_step_execution"
                    + " WHERE step_name = 'alignEvidenceStep' ORDER BY step_execution_id");
            return rows.size() <= n ? 0 : Long.parseLong(rows.get(n));
        }
        catch (SQLException e) {
            return 0; // the schema is not there yet
        }
    }

    private String url() {
        return TestServers.postgresUrl() + (TestServers.postgresUrl().contains("?") ? "&" : "?") + "currentSchema="
                + schema;
    }

    private List<String> query(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return JobsJar.rows(rs).stream().map(r -> String.valueOf(r.get(0))).toList();
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestServers.postgresUrl());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
