package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Endless mode through the real jar: three sessions of one piece of work (the orders
 * migration: a decision, a to-do list that moves on, two commits) and a last session
 * three hours ago, graduated. The {@code endless} commands report the working set,
 * continuity and the topic, without serve and through it; with endless mode on, a fresh
 * session opens with the topic and where the last session stood instead of its summary.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndlessIntegrationTests {

    @TempDir
    static Path tmp;

    static Path home;

    static Path project;

    @BeforeAll
    static void graduateFourSessionsOfOneMigration() throws Exception {
        project = tmp.resolve("shop");
        Files.createDirectories(project.resolve(".git"));
        home = tmp.resolve("home");
        Path hooks = tmp.resolve("sessions.jsonl");
        Files.write(hooks, sessions());
        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString());
        assertThat(imported.exit()).as(imported.stderr()).isZero();
        JobsJar.Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
        assertThat(graduate.stdout()).contains("consolidate topics", "score continuity");
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void statusReportsTheModeWorkingSetContinuityAndTopic() throws Exception {
        JobsJar.Result status = endless("status", "--project", project.toString(), "--json");

        Map<String, Object> doc = (Map<String, Object>) Json.parse(status.stdout());
        assertThat(doc.get("mode")).isEqualTo("disabled");
        Map<String, Object> working = (Map<String, Object>) doc.get("working_set");
        assertThat(working).containsEntry("session_id", "orders-4").containsEntry("goal", true);
        assertThat(number(working.get("open_todos"))).isEqualTo(1);
        Map<String, Object> continuity = (Map<String, Object>) doc.get("continuity");
        assertThat(number(continuity.get("sessions"))).isEqualTo(3);
        assertThat(continuity).containsEntry("last_session", "orders-4")
            .containsEntry("previous_session", "orders-3")
            .containsEntry("working_set_at_start", "full");
        assertThat(new java.math.BigDecimal(((Json.JsonNumber) continuity.get("mean")).literal()).doubleValue())
            .isGreaterThanOrEqualTo(0.5);
        Map<String, Object> topics = (Map<String, Object>) doc.get("topics");
        assertThat(number(topics.get("active"))).isEqualTo(1);
        assertThat(topics.get("last_consolidation")).isNotNull();

        JobsJar.Result text = endless("status", "--project", project.toString());
        assertThat(text.stdout()).contains("endless mode: disabled", "working set: session orders-4: a goal",
                "topics: 1 active");
        assertThat(JobsJar.run(home, new byte[0], "stats").stdout()).containsPattern("continuity  \\d\\.\\d\\d on");
    }

    @Test
    @Order(2)
    void memoriesListTheTopicWithCitedLinesAndFilterByWords() throws Exception {
        JobsJar.Result all = endless("memories", "--project", project.toString());
        assertThat(all.stdout()).containsPattern("^\\[mem:[A-Za-z0-9_-]{6}] Topic: .*V002__orders\\.sql")
            .contains("(4 sessions since", "Decided:", "- We decided to use Flyway",
                    "Committed: Add the orders table migration", "Still open:", "Backfill the orders status column");
        assertThat(all.stdout().lines().filter(l -> l.startsWith("    - ")))
            .allMatch(l -> l.matches("    - .+ \\[mem:[A-Za-z0-9_-]{6}]"));
        assertThat(endless("memories", "--project", project.toString(), "-q", "flyway backfill").stdout())
            .contains("Topic: ");
        assertThat(endless("memories", "--project", project.toString(), "-q", "kubernetes").stdout())
            .isEqualTo("no topic matches\n");
        assertThat(endless("working-set", "--project", project.toString()).stdout())
            .startsWith("Where the work stood in session orders-4")
            .contains("- Backfill the orders status column after the migration (in progress)  [ev:");
    }

    @Test
    @Order(3)
    void endlessModeOpensAFreshSessionWithTheTopicAndTheWorkingSetInsteadOfTheSummary() throws Exception {
        Map<String, Object> start = Map.of("hook_event_name", "SessionStart", "session_id", "fresh", "cwd",
                project.toString(), "source", "startup");
        String summarized = HookEvents.contextOf(HookEvents.hook(home, start));
        assertThat(summarized).contains("Last session [mem:").doesNotContain("Topic: ", "Where the work stood");

        assertThat(endless("enable").stdout()).isEqualTo("endless mode: enabled\n");
        assertThat(home.resolve("endless")).hasContent("enabled");
        String endless = HookEvents.contextOf(HookEvents.hook(home, start));

        assertThat(endless).startsWith("Where the work stood in session orders-4")
            .contains("- Backfill the orders status column after the migration (in progress)  [ev:")
            .containsPattern("Topic: .*V002__orders\\.sql.* \\[mem:[A-Za-z0-9_-]{6}]:\n> ")
            .contains("Still open")
            .doesNotContain("Last session [mem:");
        assertThat(endless.length()).isLessThanOrEqualTo(6_000);
        assertThat(endless("disable").stdout()).isEqualTo("endless mode: disabled\n");
        assertThat(HookEvents.contextOf(HookEvents.hook(home, start))).isEqualTo(summarized);
    }

    @Test
    @Order(4)
    void throughServeTheCommandsAnswerAlikeAndConsolidateRunsInIt() throws Exception {
        String without = endless("status", "--project", project.toString()).stdout();
        Path log = tmp.resolve("serve.log");
        Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.enabled=false");
        try {
            JobsJar.awaitWarm(home, serve, log);
            assertThat(endless("status", "--project", project.toString()).stdout()).isEqualTo(without);
            assertThat(endless("enable").stdout()).isEqualTo("endless mode: enabled\n");
            assertThat(home.resolve("endless")).hasContent("enabled");
            JobsJar.Result consolidate = endless("consolidate", "--project", project.toString());
            assertThat(consolidate.stdout()).contains(project + ": 1 active topic(s), 0 superseded");
            assertThat(Files.readString(log)).contains("graduationJob");
        }
        finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(endless("disable").exit()).isZero();
    }

    private static long number(Object json) {
        return Long.parseLong(((Json.JsonNumber) json).literal());
    }

    private static JobsJar.Result endless(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("endless"));
        all.addAll(List.of(args));
        JobsJar.Result r = JobsJar.run(home, new byte[0], all.toArray(String[]::new));
        assertThat(r.exit()).as("endless %s: %s", all, r.stderr()).isZero();
        return r;
    }

    // ---- four sessions of the orders migration, the last three hours ago ----

    private static List<String> sessions() {
        HookEvents events = new HookEvents(project);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> lines = new ArrayList<>();
        Instant t = now.minus(3, ChronoUnit.DAYS);
        session(lines, events, "orders-1", t, "We decided to use Flyway for the orders schema migrations.",
                new String[][] { { "Write the orders table migration V002__orders.sql", "in_progress" },
                        { "Backfill the orders status column after the migration", "pending" } },
                "Add the orders table migration V002__orders.sql", "1a2b3c4");
        t = now.minus(2, ChronoUnit.DAYS);
        session(lines, events, "orders-2", t, "Index the orders table by customer in the migration.",
                new String[][] { { "Write the orders table migration V002__orders.sql", "completed" },
                        { "Index the orders table by customer in V002__orders.sql", "in_progress" },
                        { "Backfill the orders status column after the migration", "pending" } },
                "Index the orders table by customer in V002__orders.sql", "5d6e7f8");
        t = now.minus(1, ChronoUnit.DAYS);
        session(lines, events, "orders-3", t, "Finish the orders index and check the migration applies.",
                new String[][] { { "Index the orders table by customer in V002__orders.sql", "completed" },
                        { "Backfill the orders status column after the migration", "pending" } },
                null, null);
        t = now.minus(3, ChronoUnit.HOURS);
        session(lines, events, "orders-4", t, "Now backfill the orders status column after the migration.",
                new String[][] { { "Backfill the orders status column after the migration", "in_progress" } }, null,
                null);
        return lines;
    }

    private static void session(List<String> lines, HookEvents events, String s, Instant t0, String prompt,
            String[][] todos, String commit, String sha) {
        lines.add(events.event(s, at(t0, 0), "SessionStart", "source", "startup"));
        lines.add(events.event(s, at(t0, 1), "UserPromptSubmit", "prompt", prompt));
        lines.add(events.todo(s, at(t0, 2), todos));
        lines.add(events.tool(s, at(t0, 3), "Edit",
                Map.of("file_path", project + "/db/migration/V002__orders.sql", "old_string", "a", "new_string", "b"),
                Map.of("filePath", project + "/db/migration/V002__orders.sql")));
        if (commit != null) {
            lines.add(events.tool(s, at(t0, 4), "Bash", Map.of("command", "git commit -m \"" + commit + "\""),
                    HookEvents.bashOut("[main " + sha + "] " + commit + "\n 1 file changed, 3 insertions(+)", "")));
        }
        lines.add(events.event(s, at(t0, 5), "Stop", "last_assistant_message", "Finished for now."));
        lines.add(events.event(s, at(t0, 6), "SessionEnd", "reason", "other"));
    }

    private static String at(Instant t0, int minutes) {
        return t0.plus(minutes, ChronoUnit.MINUTES).toString();
    }

}
