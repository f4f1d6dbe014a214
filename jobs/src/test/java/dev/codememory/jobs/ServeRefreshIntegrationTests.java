package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} keeps its warm indexes right across the work it does: after a
 * {@code forget} and a graduation run through it, a query through serve finds the new
 * memory by meaning alone (no word in common), as the cold path does once serve has
 * stopped.
 */
class ServeRefreshIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    private static final String SECOND_SESSION = "7f3c2a10-0000-4000-8000-000000000002";

    /** A decision that shares no word with {@link #BY_MEANING}. */
    private static final String DECISION = "We decided to make the payment webhook handler idempotent: every "
            + "delivery id goes into a unique index, so a provider retry never charges a customer twice.";

    private static final String BY_MEANING = "duplicate billing when the gateway resends its callbacks";

    @TempDir
    Path tmp;

    @Test
    void findsByMeaningWhatItGraduatedAfterAForget() throws Exception {
        Path home = tmp.resolve("home");
        Path project = tmp.resolve("shop-api");
        importHooks(home, fixture());
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stderr()).isZero();

        Path log = tmp.resolve("serve.log");
        Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.enabled=false");
        List<String> served;
        String decision;
        try {
            JobsJar.awaitWarm(home, serve, log);
            String forgotten = citation(JobsJar.runIn(project, home, "query", "checkout", "tests").stdout());
            JobsJar.Result forgot = JobsJar.runIn(project, home, "forget", forgotten);
            assertThat(forgot.exit()).as(forgot.stderr()).isZero();

            JobsJar.Result imported = JobsJar.runIn(project, home, "import", "--hooks",
                    write("second.jsonl", secondSession()).toString());
            assertThat(imported.exit()).as(imported.stderr()).isZero();
            JobsJar.Result again = JobsJar.runIn(project, home, "--job=graduate");
            assertThat(again.exit()).as(again.stderr()).isZero();
            assertThat(again.stdout()).contains("running in code-memory serve");

            decision = citation(JobsJar.runIn(project, home, "query", "payment", "webhook", "idempotent").stdout());
            served = citations(JobsJar.runIn(project, home, "query", "--json", BY_MEANING));
            assertThat(served).as("serve's log:\n%s", Files.readString(log)).contains(decision);
            assertThat(serve.isAlive()).isTrue();
        }
        finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(log)).doesNotContain("refreshing the indexes after")
            .doesNotContain("cannot shrink the database cache");
        // the cold path, on its own once serve has stopped, answers the same
        List<String> cold = citations(JobsJar.runIn(project, home, "query", "--json", BY_MEANING));
        assertThat(served).isEqualTo(cold);

        // a word no memory holds: nothing matches, and the near misses only when asked
        JobsJar.Result nothing = JobsJar.runIn(project, home, "query", "kubernetes");
        assertThat(nothing.exit()).as(nothing.stderr()).isZero();
        assertThat(nothing.stdout())
            .matches("nothing matches \"kubernetes\" \\(\\d+ near miss(es)?: " + "--near-misses lists them\\)\n");
        JobsJar.Result nearMisses = JobsJar.runIn(project, home, "query", "--near-misses", "kubernetes");
        assertThat(nearMisses.exit()).as(nearMisses.stderr()).isZero();
        assertThat(nearMisses.stdout()).startsWith("nothing matches \"kubernetes\"; near misses:\n 1. [mem:");
        Map<?, ?> json = (Map<?, ?>) Json.parse(JobsJar.runIn(project, home, "query", "--json", "kubernetes").stdout());
        assertThat(json.get("band")).isEqualTo("none");
        assertThat((List<?>) json.get("results")).isNotEmpty();
    }

    private String fixture() throws Exception {
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        return new String(getClass().getResourceAsStream("/fixtures/claude-code-session.jsonl").readAllBytes(),
                StandardCharsets.UTF_8)
            .replace(FIXTURE_DIR, tmp.toString());
    }

    /** A later session of the same project that ends with {@link #DECISION}. */
    private String secondSession() {
        String common = "\"session_id\": \"" + SECOND_SESSION + "\", \"transcript_path\": \"" + tmp
                + "/transcript-2.jsonl\", \"cwd\": \"" + tmp.resolve("shop-api")
                + "\", \"permission_mode\": \"default\"";
        return String.join("\n",
                "{" + common + ", \"hook_event_name\": \"SessionStart\", \"source\": \"startup\","
                        + " \"timestamp\": \"2026-11-03T10:00:00Z\"}",
                "{" + common + ", \"hook_event_name\": \"UserPromptSubmit\", \"prompt\": \"How should the payment "
                        + "webhook handle a delivery it has already seen?\", \"timestamp\": \"2026-11-03T10:00:10Z\"}",
                "{" + common + ", \"hook_event_name\": \"Stop\", \"stop_hook_active\": false,"
                        + " \"last_assistant_message\": \"" + DECISION + "\", \"timestamp\": \"2026-11-03T10:01:00Z\"}",
                "{" + common + ", \"hook_event_name\": \"SessionEnd\", \"reason\": \"other\","
                        + " \"timestamp\": \"2026-11-03T10:02:00Z\"}")
                + "\n";
    }

    private void importHooks(Path home, String hooks) throws Exception {
        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks",
                write("hooks.jsonl", hooks).toString());
        assertThat(imported.exit()).as(imported.stderr()).isZero();
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(tmp.resolve(name), text);
    }

    private static String citation(String queryOutput) {
        Matcher m = Pattern.compile("\\[(mem:[A-Za-z0-9_-]{6})\\]").matcher(queryOutput);
        assertThat(m.find()).as(queryOutput).isTrue();
        return m.group(1);
    }

    /**
     * The citations of a {@code query --json} answer's results, best first (the JSON
     * lists every ranked result, whatever its band).
     */
    private static List<String> citations(JobsJar.Result query) {
        assertThat(query.exit()).as(query.stderr()).isZero();
        Map<?, ?> answer = (Map<?, ?>) Json.parse(query.stdout());
        return ((List<?>) answer.get("results")).stream()
            .map(r -> String.valueOf(((Map<?, ?>) r).get("citation")))
            .toList();
    }

}
