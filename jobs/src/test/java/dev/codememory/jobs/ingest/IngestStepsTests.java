package dev.codememory.jobs.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.StepTestHome;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.test.JobOperatorTestUtils;
import org.springframework.batch.test.context.SpringBatchTest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The ingest job's steps one at a time, in this process, on the application's own beans:
 * a real DuckDB file, the real batch metadata. The whole job as a separate process (its
 * console, its exit codes, kill -9) is {@code
 * IngestJobIntegrationTests}.
 */
@SpringBatchTest
@SpringBootTest(classes = CodeMemoryApplication.class, properties = "code-memory.ingest.chunk-size=1000")
class IngestStepsTests {

    /**
     * The home the context reads its settings from: set before the context starts, so in
     * a static field.
     */
    private static final Path HOME = StepTestHome.create("code-memory-steps");

    @Autowired
    private JobOperatorTestUtils steps;

    @Autowired
    private JobDatabase database;

    @Autowired
    @Qualifier("ingestJob")
    private Job ingestJob;

    /**
     * Each test starts from an empty spool and no events (the context, and so the home,
     * is shared).
     */
    @BeforeEach
    void openEmptyDatabase() throws Exception {
        steps.setJob(ingestJob);
        database.open();
        try (Connection c = database.connection(); Statement st = c.createStatement()) {
            st.execute("DELETE FROM events");
            st.execute("DELETE FROM event_rejects");
        }
        try (Stream<Path> sealed = Files.list(new CodeMemoryHome(HOME).sealedSpool())) {
            for (Path p : sealed.toList()) {
                Files.delete(p);
            }
        }
    }

    @AfterEach
    void closeDatabase() {
        database.close();
    }

    @AfterAll
    static void removeHome() throws IOException {
        StepTestHome.remove(HOME);
    }

    @Test
    void ingestStepLoadsTheSealedSpoolInChunksAndAddsNothingWhenItReadsItAgain() throws Exception {
        spool(2_500);

        JobExecution sealed = steps.startStep("sealSpoolStep");
        JobExecution ingested = steps.startStep("ingestSpoolStep");
        JobExecution again = steps.startStep("ingestSpoolStep");

        assertThat(sealed.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        assertThat(counts(ingested)).containsExactly(2_500L, 2_500L, 3L);
        assertThat(counts(again)).as("the sealed file is still there: read again, nothing new")
            .containsExactly(2_500L, 2_500L, 3L);
        assertThat(rows("SELECT count(*), min(seq), max(seq), count(DISTINCT dedupe_key) FROM events"))
            .containsExactly(List.of(2_500L, 1L, 2_500L, 2_500L));
        assertThat(rows("SELECT event_type, session_id, project, source, spool_line FROM events WHERE seq = 1"))
            .containsExactly(List.of("UserPromptSubmit", "s0", "/tmp/project", "hook", 1L));
        assertThat(rows("SELECT count(*) FROM event_rejects")).containsExactly(List.of(0L));
    }

    @Test
    void badLinesAreKeptAsRejectsWithTheirReasonBesideTheGoodOnes() throws Exception {
        spool(10);
        Spool.forHome(new CodeMemoryHome(HOME)).appendAll(List.of("not json", "{\"received_at\":\"x\"}"));

        steps.startStep("sealSpoolStep");
        JobExecution ingested = steps.startStep("ingestSpoolStep");

        assertThat(counts(ingested)).containsExactly(12L, 12L, 1L);
        assertThat(rows("SELECT reason FROM event_rejects ORDER BY spool_line")).containsExactly(
                List.of("spool line is not valid JSON: unexpected literal at character 0"),
                List.of("spool line has no valid received_at"));
    }

    /** Read, write and commit counts of the execution's one step, which completed. */
    private static List<Long> counts(JobExecution execution) {
        assertThat(execution.getStatus()).isEqualTo(BatchStatus.COMPLETED);
        StepExecution step = execution.getStepExecutions().iterator().next();
        return List.of(step.getReadCount(), step.getWriteCount(), step.getCommitCount());
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        try (Connection c = database.connection()) {
            return StepTestHome.rows(c, sql);
        }
    }

    /** Generated hook events in the spool, as the hook appends them. */
    private static void spool(int count) throws IOException {
        Spool spool = Spool.forHome(new CodeMemoryHome(HOME));
        SpoolLineBuilder builder = SpoolLineBuilder.defaults();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String kind = i % 3 == 0 ? "UserPromptSubmit" : "PostToolUse";
            String json = "{\"session_id\":\"s" + (i / 100) + "\",\"cwd\":\"/tmp/project\",\"hook_event_name\":\""
                    + kind + "\",\"prompt\":\"step " + i + "\",\"tool_use_id\":\"t" + i + "\"}";
            lines.add(builder.build(json.getBytes(StandardCharsets.UTF_8), Instant.now(), "hook", null).json());
        }
        spool.appendAll(lines);
    }

}
