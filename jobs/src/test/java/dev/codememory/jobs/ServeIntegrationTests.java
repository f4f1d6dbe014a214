package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serve} with a real Quartz scheduler, on short intervals. */
class ServeIntegrationTests {

    @TempDir
    Path home;

    @Test
    void servesIngestCatchesUpNightlyGraduatesWhenIdleAndStopsOnSigterm() throws Exception {
        Path log = home.resolveSibling(home.getFileName() + "-serve.log");
        Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.ingest-every=2s",
                "--code-memory.schedule.idle-after=4s", "--code-memory.schedule.idle-check-every=1s");
        try {
            // a fresh home has never graduated: the missed nightly run is caught up at
            // start
            awaitTrue(() -> completed("graduationJob") >= 1, 60, log);

            for (int i = 0; i < 5; i++) {
                String event = HookIntegrationTests.postToolUse("serve-session", i, "event " + i);
                assertThat(JobsJar.run(home, utf8(event), JobsJar.hookCommand()).exit()).isZero();
            }
            // serve holds the database: what ingest wrote is read from the batch metadata
            // until it stops
            awaitTrue(() -> ingested() == 5, 60, log);
            // no new events for 4 s after those: the idle trigger graduates once more
            awaitTrue(() -> completed("graduationJob") >= 2, 60, log);
        }
        finally {
            serve.destroy(); // SIGTERM
        }
        assertThat(serve.waitFor(60, TimeUnit.SECONDS)).as("serve stops on SIGTERM").isTrue();
        assertThat(serve.exitValue()).isIn(0, 143);

        List<List<Object>> runs = JobsJar.sqliteRows(home, """
                SELECT START_TIME, END_TIME, STATUS FROM BATCH_JOB_EXECUTION ORDER BY START_TIME""");
        // every run completed, but the one a scheduled ingest may have started just
        // before SIGTERM: asked to stop,
        // it ends STOPPED and restarts with the next run (never UNKNOWN, which Spring
        // Batch will not restart)
        assertThat(runs.subList(0, runs.size() - 1)).allSatisfy(run -> assertThat(run.get(2)).isEqualTo("COMPLETED"));
        assertThat(runs.get(runs.size() - 1).get(2)).isIn("COMPLETED", "STOPPED");
        for (int i = 1; i < runs.size(); i++) { // never two jobs at once
            long previousEnd = ((Number) runs.get(i - 1).get(1)).longValue(); // SQLite
                                                                              // keeps
                                                                              // epoch
                                                                              // millis
            long start = ((Number) runs.get(i).get(0)).longValue();
            assertThat(start).isGreaterThanOrEqualTo(previousEnd);
        }
        assertThat(runs.size()).isGreaterThanOrEqualTo(3); // catch-up graduation,
                                                           // ingests, idle graduation
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events")).isEqualTo(5);
        assertThat(Files.readString(log)).contains("catching up now").contains("shutting down");
    }

    /**
     * A finished session is memory by the next one: serve graduates a short while after a
     * SessionEnd, not after the 30 idle minutes; a session that has not ended waits.
     */
    @Test
    void graduatesSoonAfterASessionEndsAndNotBefore() throws Exception {
        Path log = home.resolveSibling(home.getFileName() + "-serve-end.log");
        Path project = Files.createDirectories(home.resolveSibling(home.getFileName() + "-project"));
        HookEvents events = new HookEvents(project);
        Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.ingest-every=1s",
                "--code-memory.schedule.idle-after=30m", "--code-memory.schedule.idle-check-every=1s",
                "--code-memory.schedule.after-session-end=2s");
        try {
            awaitTrue(() -> completed("graduationJob") >= 1, 60, log); // the catch-up run
            String session = "ended-session";
            for (String line : List.of(
                    events.event(session, "2026-11-26T10:00:00Z", "UserPromptSubmit", "prompt",
                            "Why does the invoice export drop the currency column?"),
                    events.event(session, "2026-11-26T10:01:00Z", "Stop", "last_assistant_message",
                            "The exporter built its header from the first row, which had no currency. "
                                    + "I fixed it by taking the header from the schema."))) {
                assertThat(JobsJar.run(home, utf8(strip(line)), JobsJar.hookCommand()).exit()).isZero();
            }
            awaitTrue(() -> ingested() >= 2, 60, log);
            Thread.sleep(4_000); // past after-session-end, still far from idle-after
            assertThat(completed("graduationJob")).as("no graduation while the session goes on").isEqualTo(1);

            assertThat(
                    JobsJar
                        .run(home,
                                utf8(strip(
                                        events.event(session, "2026-11-26T10:02:00Z", "SessionEnd", "reason", "exit"))),
                                JobsJar.hookCommand())
                        .exit())
                .isZero();
            awaitTrue(() -> completed("graduationJob") >= 2, 60, log);
        }
        finally {
            serve.destroy();
            serve.waitFor(60, TimeUnit.SECONDS);
        }
        assertThat(JobsJar.duckLong(home,
                "SELECT count(*) FROM entries WHERE stage = 'verified' AND session_id = 'ended-session'"))
            .isPositive();
        assertThat(Files.readString(log)).contains("a session ended: graduating now");
    }

    /** The hook reads what Claude Code sends: no {@code timestamp} field. */
    private static String strip(String line) {
        return line.replaceAll(",\\s*\"timestamp\":\"[^\"]*\"", "");
    }

    private long completed(String job) {
        try {
            return ((Number) JobsJar
                .sqliteRows(home,
                        """
                                SELECT count(*) FROM BATCH_JOB_EXECUTION e JOIN BATCH_JOB_INSTANCE i
                                ON i.JOB_INSTANCE_ID = e.JOB_INSTANCE_ID WHERE i.JOB_NAME = '%s' AND e.STATUS = 'COMPLETED'"""
                            .formatted(job))
                .get(0)
                .get(0)).longValue();
        }
        catch (SQLException e) {
            return 0;
        }
    }

    private long ingested() {
        try {
            return ((Number) JobsJar.sqliteRows(home, """
                    SELECT coalesce(sum(WRITE_COUNT), 0) FROM BATCH_STEP_EXECUTION
                    WHERE STEP_NAME = 'ingestSpoolStep' AND STATUS = 'COMPLETED'""").get(0).get(0)).longValue();
        }
        catch (SQLException e) {
            return -1;
        }
    }

    private static void awaitTrue(BooleanSupplier condition, int seconds, Path log) throws Exception {
        long deadline = System.currentTimeMillis() + seconds * 1000L;
        while (System.currentTimeMillis() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("condition not met in " + seconds + " s; serve log:\n"
                + (Files.exists(log) ? Files.readString(log) : "(none)"));
    }

}
