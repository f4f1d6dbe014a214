package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.injection.Injection;
import dev.codememory.writers.injection.InjectionRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --job=ingest} as a real process on a real DuckDB file, with SQLite batch
 * metadata.
 */
class IngestJobIntegrationTests {

    @TempDir
    Path home;

    @Test
    void ingestRecordsPerStepCountsAndRowsAndAddsNothingTheSecondTime() throws Exception {
        spool(2_500, 0);

        JobsJar.Result first = JobsJar.run(home, new byte[0], "--job=ingest", "--code-memory.ingest.chunk-size=1000");

        assertThat(first.exit()).isZero();
        assertThat(first.stdout()).contains("ingest completed in");
        assertThat(JobsJar.sqliteRows(home, """
                SELECT s.STEP_NAME, s.STATUS, s.READ_COUNT, s.WRITE_COUNT, s.COMMIT_COUNT
                FROM BATCH_STEP_EXECUTION s ORDER BY s.STEP_EXECUTION_ID""")).containsExactly(
                List.of("sealSpoolStep", "COMPLETED", 0, 0, 1), List.of("ingestSpoolStep", "COMPLETED", 2500, 2500, 3),
                List.of("deleteIngestedSpoolStep", "COMPLETED", 0, 1, 1));
        assertThat(
                JobsJar.duckRows(home, "SELECT count(*), min(seq), max(seq), count(DISTINCT dedupe_key) FROM events"))
            .containsExactly(List.of(2500L, 1L, 2500L, 2500L));
        assertThat(JobsJar.duckRows(home, """
                SELECT event_type, session_id, project, source, spool_line FROM events WHERE seq = 1"""))
            .containsExactly(List.of("UserPromptSubmit", "s0", "/tmp/project", "hook", 1L));
        assertThat(JobsJar.duckRows(home,
                """
                        SELECT build_id, step_name, status, read_count, write_count FROM pipeline_metrics ORDER BY step_execution_id"""))
            .containsExactly(List.of("ingestJob-1", "sealSpoolStep", "COMPLETED", 0L, 0L),
                    List.of("ingestJob-1", "ingestSpoolStep", "COMPLETED", 2500L, 2500L),
                    List.of("ingestJob-1", "deleteIngestedSpoolStep", "COMPLETED", 0L, 1L));
        assertThat(JobsJar.duckRows(home, "SELECT job_name, status FROM build_runs"))
            .containsExactly(List.of("ingestJob", "COMPLETED"));

        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(2500);
    }

    @Test
    void killedIngestResumesAndKeepsEveryEventExactlyOnce() throws Exception {
        int events = 150_000;
        spool(events, 0);
        Path log = home.resolveSibling(home.getFileName() + "-kill.log");

        Process job = JobsJar.start(home, log, "--job=ingest", "--code-memory.ingest.chunk-size=500");
        long deadline = System.currentTimeMillis() + 180_000;
        long committed = 0;
        while (committed < 5_000 && job.isAlive() && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            committed = readCountSoFar();
        }
        assertThat(job.isAlive()).as("the job must still be running when we kill it").isTrue();
        job.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, no cleanup
        assertThat(JobsJar.sqliteRows(home, "SELECT STATUS FROM BATCH_JOB_EXECUTION"))
            .containsExactly(List.of("STARTED"));
        long committedBeforeKill = readCountSoFar();
        assertThat(committedBeforeKill).isBetween(5_000L, events - 1L);

        JobsJar.Result rerun = JobsJar.run(home, new byte[0], "--job=ingest", "--code-memory.ingest.chunk-size=500");

        assertThat(rerun.exit()).as(rerun.stderr()).isZero();
        assertThat(
                JobsJar.duckRows(home, "SELECT count(*), count(DISTINCT dedupe_key), min(seq), max(seq) FROM events"))
            .containsExactly(List.of((long) events, (long) events, 1L, (long) events));
        assertThat(JobsJar.sqliteRows(home,
                "SELECT JOB_INSTANCE_ID, STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
            .containsExactly(List.of(1, "FAILED"), List.of(1, "COMPLETED"));
        // the rerun read only what the killed run had not committed
        List<List<Object>> ingestSteps = JobsJar.sqliteRows(home, """
                SELECT READ_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'ingestSpoolStep'
                ORDER BY STEP_EXECUTION_ID""");
        assertThat(ingestSteps).hasSize(2);
        assertThat(((Number) ingestSteps.get(0).get(0)).longValue() + ((Number) ingestSteps.get(1).get(0)).longValue())
            .isEqualTo(events);
        try (Stream<Path> sealed = Files.list(home.resolve("spool/sealed"))) {
            assertThat(sealed).isEmpty();
        }
    }

    @Test
    void failedStepIsNamedAndTheSameCommandResumesIt() throws Exception {
        spool(1_200, 0);
        assertThat(JobsJar.run(home, new byte[0], "--job=ingest", "--code-memory.ingest.chunk-size=500").exit())
            .isZero();
        spool(700, 1_200);
        new Spool(home.resolve("spool"), home.resolve("spool/sealed")).seal();
        Path broken = Files.createDirectories(home.resolve("spool/sealed/zzzz-unreadable.jsonl"));

        JobsJar.Result failed = JobsJar.run(home, new byte[0], "--job=ingest", "--code-memory.ingest.chunk-size=500");

        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.stderr()).contains("job ingest FAILED in step ingestSpoolStep");
        assertThat(JobsJar.duckRows(home, "SELECT job_name, status FROM build_runs ORDER BY job_execution_id"))
            .containsExactly(List.of("ingestJob", "COMPLETED"), List.of("ingestJob", "FAILED"));

        Files.delete(broken);
        JobsJar.Result resumed = JobsJar.run(home, new byte[0], "--job=ingest", "--code-memory.ingest.chunk-size=500");

        assertThat(resumed.exit()).isZero();
        assertThat(JobsJar.duckRows(home, "SELECT count(*), count(DISTINCT dedupe_key) FROM events"))
            .containsExactly(List.of(1_900L, 1_900L));
        assertThat(JobsJar.sqliteRows(home, """
                SELECT i.JOB_INSTANCE_ID, e.STATUS FROM BATCH_JOB_EXECUTION e
                JOIN BATCH_JOB_INSTANCE i ON i.JOB_INSTANCE_ID = e.JOB_INSTANCE_ID ORDER BY e.JOB_EXECUTION_ID"""))
            .containsExactly(List.of(1, "COMPLETED"), List.of(2, "FAILED"), List.of(2, "COMPLETED"));
    }

    @Test
    void unknownJobExitsWithUsageCode() throws Exception {
        JobsJar.Result result = JobsJar.run(home, new byte[0], "--job=nope");

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.stderr()).contains("unknown job 'nope'").contains("graduate").contains("ingest");
    }

    @Test
    void lockedDatabaseIsReportedWithTheHoldingProcess() throws Exception {
        spool(10, 0);
        assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        try (Connection held = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"))) {
            JobsJar.Result result = JobsJar.run(home, new byte[0], "--job=ingest");

            assertThat(result.exit()).isEqualTo(3);
            assertThat(result.stderr()).contains("process " + ProcessHandle.current().pid());
        }
    }

    @Test
    void importReplaysTimestampedHistoryOnceAndKeepsBadLines() throws Exception {
        Path history = home.resolveSibling(home.getFileName() + "-history.jsonl");
        Files.writeString(history, String.join("\n",
                "{\"hook_event_name\":\"UserPromptSubmit\",\"session_id\":\"h1\",\"cwd\":\"/tmp/p\",\"prompt\":\"hi <private>pin 1234</private>\",\"timestamp\":\"2023-05-08T13:57:00Z\"}",
                "{\"hook_event_name\":\"Stop\",\"session_id\":\"h1\",\"cwd\":\"/tmp/p\",\"last_assistant_message\":\"hello\",\"timestamp\":\"2023-05-08T13:58:00+02:00\"}",
                "{broken", "",
                "{\"hook_event_name\":\"SessionEnd\",\"session_id\":\"h1\",\"cwd\":\"/tmp/p\",\"reason\":\"other\",\"timestamp\":\"2023-05-08T14:00:00Z\"}",
                ""));

        for (int round = 0; round < 2; round++) {
            JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", history.toString());
            assertThat(imported.exit()).isZero();
            assertThat(imported.stdout()).contains("imported 4 lines from 1 file(s)").contains("1 flagged");
            assertThat(JobsJar.run(home, new byte[0], "--job=ingest").exit()).isZero();
        }

        assertThat(JobsJar.duckRows(home,
                "SELECT event_type, ts::VARCHAR, source, payload->>'prompt' FROM events ORDER BY ts"))
            .containsExactly(java.util.Arrays.asList("Stop", "2023-05-08 11:58:00", "import", null),
                    java.util.Arrays.asList("UserPromptSubmit", "2023-05-08 13:57:00", "import", "hi [PRIVATE]"),
                    java.util.Arrays.asList("SessionEnd", "2023-05-08 14:00:00", "import", null));
        assertThat(JobsJar.duckRows(home, "SELECT reason FROM event_rejects")).hasSize(2)
            .allSatisfy(row -> assertThat(row.get(0).toString()).startsWith("hook input rejected: invalid JSON"));
    }

    @Test
    void injectionRecordedAfterAHookPromptIsIngestedAndNamesThatPrompt() throws Exception {
        JobsJar.Result hook = JobsJar
            .run(home,
                    utf8("{\"session_id\":\"s-inj\",\"cwd\":\"/tmp/p\","
                            + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"why does the deploy fail\"}"),
                    "hook");
        assertThat(hook.exit()).isZero();
        List<String> spooled = Files.readAllLines(home.resolve("spool/current.jsonl"));
        assertThat(spooled).hasSize(1);
        String promptEventId = EventIdentity.eventIdOf(spooled.get(0));
        Injection injection = new Injection("s-inj", promptEventId, "UserPromptSubmit",
                Instant.parse("2025-06-01T10:15:30.123456Z"), "high", 812,
                List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.93),
                        new Injection.Item("mem:Q2w_e4", "m-2", 2, 0.78)));
        InjectionRecorder.record(new CodeMemoryHome(home), injection);

        for (int round = 0; round < 2; round++) {
            InjectionRecorder.record(new CodeMemoryHome(home), injection); // a second
                                                                           // copy of the
                                                                           // same record
            JobsJar.Result ingest = JobsJar.run(home, new byte[0], "--job=ingest");
            assertThat(ingest.exit()).as(ingest.stderr()).isZero();
        }

        assertThat(JobsJar.duckRows(home, """
                SELECT i.injection_id, i.session_id, i.hook_event_name, i.band, i.chars, i.injected_at::VARCHAR,
                       e.event_type, e.session_id
                FROM injections i JOIN events e ON e.event_id = i.prompt_event_id"""))
            .containsExactly(List.of(injection.injectionId(), "s-inj", "UserPromptSubmit", "high", 812,
                    "2025-06-01 10:15:30.123456", "UserPromptSubmit", "s-inj"));
        assertThat(JobsJar.duckRows(home, """
                SELECT injection_id, rank, citation, memory_id, score FROM injection_items ORDER BY rank"""))
            .containsExactly(List.of(injection.injectionId(), 1, "mem:a7Bc3x", "m-1", 0.93),
                    List.of(injection.injectionId(), 2, "mem:Q2w_e4", "m-2", 0.78));
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(1);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM event_rejects")).isZero();
    }

    private long readCountSoFar() {
        try {
            List<List<Object>> rows = JobsJar.sqliteRows(home,
                    "SELECT READ_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'ingestSpoolStep'");
            return rows.isEmpty() ? 0 : ((Number) rows.get(0).get(0)).longValue();
        }
        catch (java.sql.SQLException e) {
            return 0; // the metadata file is still being created
        }
    }

    /** Appends generated hook events to the home's spool, as the hook would. */
    private void spool(int count, int offset) throws Exception {
        CodeMemoryHome cmh = new CodeMemoryHome(home).ensureCreated();
        Spool spool = Spool.forHome(cmh);
        SpoolLineBuilder builder = SpoolLineBuilder.defaults();
        List<String> batch = new ArrayList<>();
        for (int i = offset; i < offset + count; i++) {
            String kind = i % 3 == 0 ? "UserPromptSubmit" : "PostToolUse";
            String json = "{\"session_id\":\"s" + (i / 100) + "\",\"cwd\":\"/tmp/project\",\"hook_event_name\":\""
                    + kind + "\",\"prompt\":\"step " + i + "\",\"tool_use_id\":\"t" + i + "\"}";
            batch.add(builder.build(utf8(json), Instant.now(), "hook", null).json());
            if (batch.size() == 5_000) {
                spool.appendAll(batch);
                batch.clear();
            }
        }
        spool.appendAll(batch);
    }

}
