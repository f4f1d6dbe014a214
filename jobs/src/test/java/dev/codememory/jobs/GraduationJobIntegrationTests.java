package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.fixtures.GeneratedSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --job=graduate} on a realistic Claude Code session, as a real process on a real
 * DuckDB file.
 */
class GraduationJobIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    @TempDir
    Path tmp;

    @Test
    void graduatesTheSessionIntoVerifiedEntriesWithSpansAndATaskBlockedByAnArtifact() throws Exception {
        Path home = importFixture();

        JobsJar.Result result = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(result.exit()).as(result.stderr()).isZero();
        String project = tmp.resolve("shop-api").toString();
        assertThat(JobsJar.duckRows(home,
                "SELECT entry_type, stage, status, project, title FROM entries "
                        + "ORDER BY created_ts, entry_type, title"))
            .containsExactly(
                    row("exchange", "verified", "active", project,
                            "The checkout tests fail on CI. Can you find out why?"),
                    row("observation", "verified", "active", project,
                            "Bash: ./mvnw -q test -Dtest=CheckoutServiceTests (failed)"),
                    row("observation", "verified", "active", project,
                            "Edit " + project + "/src/main/java/shop/CheckoutService.java"),
                    row("decision", "verified", "active", project,
                            "We decided to use DuckDB instead of SQLite for the order events store, since the reports need…"),
                    row("insight", "verified", "active", project,
                            "The root cause was that CheckoutService ignored the discount when the cart had a coupon"),
                    row("exchange", "verified", "active", project,
                            "I prefer constructor injection over field injection. Never use wildcard imports in this repo."),
                    row("preference", "verified", "active", project,
                            "I prefer constructor injection over field injection"),
                    row("preference", "verified", "active", project, "Never use wildcard imports in this repo"),
                    row("exchange", "verified", "active", project,
                            "TODO: publish the 2.4 release to Maven Central - blocked on PROJ-42 until legal signs off."),
                    row("task", "verified", "active", project, "publish the 2.4 release to Maven Central"),
                    row("summary", "verified", "active", project,
                            "Session 2026-11-02: The checkout tests fail on CI. Can you find out why?"));

        // every span, read back from its source, is exactly the quote
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM evidence_spans"))
            .isEqualTo(JobsJar.duckLong(home, "SELECT sum(json_array_length(quotes_json)) FROM entries"));
        assertThat(JobsJar.duckRows(home,
                """
                        WITH q AS (SELECT entry_id, unnest(from_json(quotes_json, '[{"text":"VARCHAR"}]')).text AS quote,
                                          generate_subscripts(from_json(quotes_json, '[{"text":"VARCHAR"}]'), 1) - 1 AS idx
                                   FROM entries),
                             src AS (SELECT prompt_event_id AS event_id, 'prompt' AS field, prompt_text AS text FROM turns
                                     UNION ALL SELECT reply_event_id, 'reply', reply_text FROM turns WHERE reply_event_id IS NOT NULL
                                     UNION ALL SELECT observation_id, 'tool_input', input_text FROM observations
                                     UNION ALL SELECT observation_id, 'tool_response', output_text FROM observations)
                        SELECT s.method, count(*), sum(CASE WHEN substr(src.text, s.span_start + 1, s.span_end - s.span_start)
                                                              = q.quote THEN 1 ELSE 0 END)
                        FROM evidence_spans s JOIN q ON q.entry_id = s.entry_id AND q.idx = s.quote_index
                        JOIN src ON src.event_id = s.event_id AND src.field = s.field GROUP BY s.method"""))
            .containsExactly(List.of("exact", 18L, java.math.BigInteger.valueOf(18)));
        // prompts are read back from the L0 event itself too
        assertThat(JobsJar.duckLong(home,
                """
                        SELECT count(*) FROM evidence_spans s JOIN events e ON e.event_id = s.event_id
                        WHERE s.field = 'prompt'
                          AND strpos(e.payload->>'prompt', substr(e.payload->>'prompt', s.span_start + 1, s.span_end - s.span_start)) > 0"""))
            .isEqualTo(JobsJar.duckLong(home, "SELECT count(*) FROM evidence_spans WHERE field = 'prompt'"));

        assertThat(JobsJar.duckRows(home,
                "SELECT entity_type, status, title, canonical_key FROM entities ORDER BY entity_type"))
            .containsExactly(row("artifact", "active", "PROJ-42", "art:jira:PROJ-42"),
                    row("task", "blocked", "publish the 2.4 release to Maven Central",
                            "task:" + project.toLowerCase() + ":publish the 2 4 release to maven central"));
        assertThat(JobsJar.duckRows(home, """
                SELECT e.rel_type, s.entity_type, d.entity_type FROM edges e
                JOIN entities s ON s.entity_id = e.src_id JOIN entities d ON d.entity_id = e.dst_id"""))
            .containsExactly(row("blocked_by", "task", "artifact"));
        assertThat(JobsJar.duckRows(home, "SELECT branch, prompt_count, tool_count FROM sessions"))
            .containsExactly(java.util.Arrays.asList("release/2.4", 3, 2));
        assertThat(JobsJar.duckRows(home, "SELECT reply_source, reply_text FROM turns ORDER BY prompt_ts"))
            .extracting(r -> r.get(0))
            .containsExactly("stop", "stop", "transcript");

        assertThat(JobsJar.duckRows(home, "SELECT entry_type, count(*) FROM working_set GROUP BY ALL ORDER BY ALL"))
            .containsExactly(row("decision", 1L), row("exchange", 3L), row("insight", 1L), row("observation", 2L),
                    row("preference", 2L), row("summary", 1L), row("task", 1L));

        JobsJar.Result blocked = JobsJar.run(home, new byte[0], "blocked");
        assertThat(blocked.exit()).isZero();
        assertThat(blocked.stdout()).contains("blocked", "publish the 2.4 release to Maven Central",
                "blocked by artifact: PROJ-42");
        JobsJar.Result tasks = JobsJar.run(home, new byte[0], "tasks", "--status", "blocked");
        assertThat(tasks.stdout()).isEqualTo(blocked.stdout());
        String taskId = tasks.stdout().substring(0, tasks.stdout().indexOf(' '));
        JobsJar.Result show = JobsJar.run(home, new byte[0], "task", "show", taskId);
        assertThat(show.stdout()).contains("status:  blocked", "blocked by artifact: PROJ-42 (art:jira:PROJ-42)",
                "task_created", "task_blockers_set", "publish the 2.4 release to Maven Central");
    }

    @Test
    void graduatingAgainChangesNothing() throws Exception {
        Path home = importFixture();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();
        List<Long> first = counts(home);

        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("hooks.jsonl").toString()).exit())
            .isZero();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();

        assertThat(counts(home)).isEqualTo(first);
        assertThat(first.get(0)).isEqualTo(11); // entries
    }

    @Test
    void candidateWhoseQuoteIsNotInItsSourceIsNeverVerified() throws Exception {
        Path home = importFixture();
        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();
        String promptEvent = JobsJar.duckRows(home, "SELECT prompt_event_id FROM turns ORDER BY prompt_ts LIMIT 1")
            .get(0)
            .get(0)
            .toString();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"));
                Statement st = c.createStatement()) {
            // what a hallucinating model extractor would produce: a claim resting on
            // words nobody said
            st.executeUpdate("""
                    INSERT INTO candidates VALUES ('cand_made_up', 'fact', '7f3c2a10-0000-4000-8000-000000000001',
                      'p', TIMESTAMP '2026-11-02 09:00:11', 'The CI runs on Jenkins', 'The CI runs on Jenkins', NULL,
                      '[{"eventId":"%s","field":"prompt","text":"our CI runs on Jenkins 2.4 with four agents"}]',
                      'test', now())""".formatted(promptEvent));
        }

        assertThat(JobsJar.run(home, new byte[0], "--job=graduate").exit()).isZero();

        assertThat(JobsJar.duckRows(home, "SELECT stage FROM entries WHERE candidate_id = 'cand_made_up'"))
            .containsExactly(List.of("unverified"));
        assertThat(JobsJar.duckRows(home, """
                SELECT r.stage, r.reason FROM graduation_rejects r JOIN entries e ON e.entry_id = r.subject_id
                WHERE e.candidate_id = 'cand_made_up'"""))
            .containsExactly(List.of("align", "quote 0: not found in " + promptEvent + "/prompt"));
    }

    @Test
    void killedDuringAlignmentConvergesToTheStateOfAnUninterruptedRun() throws Exception {
        Path hooks = tmp.resolve("generated.jsonl");
        GeneratedSessions.write(hooks, 5_000);
        Path reference = tmp.resolve("reference");
        Path killed = tmp.resolve("killed");
        for (Path home : List.of(reference, killed)) {
            assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();
        }
        assertThat(JobsJar.run(reference, new byte[0], "--job=graduate").exit()).isZero();

        Process job = JobsJar.start(killed, tmp.resolve("killed.log"), "--job=graduate");
        long deadline = System.currentTimeMillis() + 300_000;
        while (alignedSoFar(killed) == 0 && job.isAlive() && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(job.isAlive()).as("still aligning when killed").isTrue();
        job.destroyForcibly().waitFor();
        long alignedBeforeKill = alignedSoFar(killed);
        assertThat(alignedBeforeKill).isPositive();
        assertThat(JobsJar.sqliteRows(killed, "SELECT STATUS FROM BATCH_JOB_EXECUTION"))
            .containsExactly(List.of("STARTED"));

        JobsJar.Result rerun = JobsJar.run(killed, new byte[0], "--job=graduate");

        assertThat(rerun.exit()).as(rerun.stdout() + rerun.stderr()).isZero();
        assertThat(counts(killed)).isEqualTo(counts(reference));
        assertThat(JobsJar.duckLong(killed, "SELECT count(*) FROM entries WHERE stage = 'candidate'")).isZero();
        assertThat(JobsJar.duckLong(killed, "SELECT count(*) FROM entries")).isGreaterThan(alignedBeforeKill);
        assertThat(JobsJar.sqliteRows(killed, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
            .containsExactly(List.of("FAILED"), List.of("COMPLETED"));
    }

    @Test
    void aBacklogGraduatesItsNewestTwoWeeksFirstThenTheRest() throws Exception {
        Path generated = tmp.resolve("generated.jsonl");
        GeneratedSessions.write(generated, 60 * GeneratedSessions.EVENTS_PER_SESSION);
        // the first 55 sessions a month earlier: a backlog behind the newest two weeks
        Pattern session = Pattern.compile("\"session_id\":\"bench-session-(\\d+)\"");
        Pattern time = Pattern.compile("\"timestamp\":\"([^\"]+)\"");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(generated)) {
            Matcher s = session.matcher(line);
            Matcher t = time.matcher(line);
            assertThat(s.find() && t.find()).isTrue();
            lines.add(Integer.parseInt(s.group(1)) >= 55 ? line
                    : t.replaceFirst("\"timestamp\":\"" + Instant.parse(t.group(1)).minus(Duration.ofDays(30)) + "\""));
        }
        Path hooks = tmp.resolve("backlog.jsonl");
        Files.write(hooks, lines);
        Path home = tmp.resolve("home");
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();

        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(graduated.exit()).as(graduated.stdout() + graduated.stderr()).isZero();
        for (String step : List.of("assembleSessionsStep", "extractCandidatesStep", "summarizeSessionsStep")) {
            assertThat(
                    JobsJar.sqliteRows(home,
                            "SELECT READ_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = '" + step
                                    + "' ORDER BY STEP_EXECUTION_ID"))
                .as(step)
                .containsExactly(List.of(5), List.of(55));
        }
        List<List<Object>> embedded = JobsJar.sqliteRows(home,
                "SELECT WRITE_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'embedMemoriesStep'"
                        + " ORDER BY STEP_EXECUTION_ID");
        assertThat(embedded).hasSize(2);
        assertThat(((Number) embedded.get(0).get(0)).longValue())
            .as("memories of the newest sessions embedded by the first pass")
            .isEqualTo(JobsJar.duckLong(home, """
                    SELECT count(*) FROM vector_outbox o JOIN entries e ON e.entry_id = o.memory_id
                    JOIN sessions s USING (session_id) LEFT JOIN candidates k USING (candidate_id)
                    WHERE s.started_at >= (SELECT max(ts) - INTERVAL 14 DAY FROM events)
                      AND k.extractor IS DISTINCT FROM 'facts-v1' -- read off whole projects, by the second pass"""))
            .isPositive();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE entry_type = 'summary'")).isEqualTo(60);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE stage = 'candidate'")).isZero();
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM candidates")).isEqualTo(JobsJar.duckLong(home,
                "SELECT (SELECT count(*) FROM entries WHERE entry_type <> 'summary')"
                        + " + (SELECT count(*) FROM edges WHERE rel_type = 'duplicate_of')"
                        + " + (SELECT count(*) FROM graduation_rejects WHERE stage = 'validate')"));

        List<Long> before = counts(home);
        JobsJar.Result again = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(again.exit()).isZero();
        assertThat(counts(home)).isEqualTo(before);
        assertThat(JobsJar.sqliteRows(home,
                "SELECT READ_COUNT FROM BATCH_STEP_EXECUTION"
                        + " WHERE STEP_NAME = 'assembleSessionsStep' ORDER BY STEP_EXECUTION_ID DESC LIMIT 1"))
            .containsExactly(List.of(0));
    }

    private static long alignedSoFar(Path home) {
        try {
            List<List<Object>> rows = JobsJar.sqliteRows(home,
                    "SELECT WRITE_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'alignEvidenceStep'");
            return rows.isEmpty() ? 0 : ((Number) rows.get(0).get(0)).longValue();
        }
        catch (java.sql.SQLException e) {
            return 0;
        }
    }

    private Path importFixture() throws Exception {
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        for (String name : new String[] { "claude-code-session.jsonl", "claude-code-transcript.jsonl" }) {
            String text = new String(getClass().getResourceAsStream("/fixtures/" + name).readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8)
                .replace(FIXTURE_DIR, tmp.toString());
            Files.writeString(
                    tmp.resolve(name.equals("claude-code-session.jsonl") ? "hooks.jsonl" : "transcript.jsonl"), text);
        }
        Path home = tmp.resolve("home");
        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks",
                tmp.resolve("hooks.jsonl").toString());
        assertThat(imported.exit()).isZero();
        return home;
    }

    static List<Long> counts(Path home) throws Exception {
        List<Long> counts = new ArrayList<>();
        for (String table : new String[] { "entries", "evidence_spans", "edges", "entities", "entity_aliases",
                "task_events", "candidates", "graduation_rejects", "turns", "observations", "sessions", "events" }) {
            counts.add(JobsJar.duckLong(home, "SELECT count(*) FROM " + table));
        }
        counts.add(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE stage = 'verified'"));
        counts.add(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE status = 'superseded'"));
        return counts;
    }

    private static List<Object> row(Object... values) {
        return List.of(values);
    }

}
