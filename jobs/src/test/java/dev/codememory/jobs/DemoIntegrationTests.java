package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first run a newcomer sees ({@code demo}: the shipped sample graduated, then what
 * Claude is shown), and the commands that report on a store — stats, history, export — on
 * the home it leaves.
 */
class DemoIntegrationTests {

    private static final String PROJECT = "/home/demo/shop-api";

    @TempDir
    static Path tmp;

    private static Path home;

    private static JobsJar.Result demo;

    @BeforeAll
    static void runTheDemo() throws Exception {
        home = tmp.resolve("demo-home");
        // CODE_MEMORY_HOME points elsewhere: the demo must use its own home, never the
        // user's
        demo = JobsJar.run(tmp.resolve("users-home"), new byte[0], "demo", "--home", home.toString());
    }

    @Test
    void showsTheJobsStagesThenWhatClaudeIsShownAtSessionStartAndForAPrompt() throws Exception {
        assertThat(demo.exit()).as(demo.stderr()).isZero();
        assertThat(demo.stdout()).contains("demo home: " + home,
                "32 events: PostToolUse 12, SessionEnd 3, SessionStart 3, Stop 7, UserPromptSubmit 7",
                "\n  embed memories ", "graduate completed in ",
                "3. what Claude is shown when the next session starts in " + PROJECT, "Last session [mem:",
                "the 2.4 release to Maven Central — blocked by: PROJ-42  [mem:",
                "Never use wildcard imports in this repo  [mem:",
                "4. what Claude is shown with the prompt \"Why do we keep the invoices in PostgreSQL and not in DuckDB?\"",
                "From earlier sessions of this project",
                "the invoices stay in PostgreSQL because they need transactions")
            .doesNotContain(" INFO ", "(nothing: no memory is relevant enough to inject)");
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM events WHERE source = 'transcript'")).isEqualTo(32);
        assertThat(tmp.resolve("users-home").resolve("memory.duckdb")).doesNotExist();
    }

    @Test
    void statsCountsWhatTheStoreHolds() throws Exception {
        JobsJar.Result stats = JobsJar.run(home, new byte[0], "stats", "--json");

        assertThat(stats.exit()).as(stats.stderr()).isZero();
        Map<?, ?> doc = (Map<?, ?>) Json.parse(stats.stdout().strip());
        Map<?, ?> events = (Map<?, ?>) doc.get("events");
        assertThat(number(events.get("total"))).isEqualTo(JobsJar.duckLong(home, "SELECT count(*) FROM events"));
        assertThat(number(((Map<?, ?>) events.get("by_source")).get("transcript"))).isEqualTo(32);
        assertThat(number(doc.get("sessions")))
            .isEqualTo(JobsJar.duckLong(home, "SELECT count(DISTINCT session_id) FROM events"));
        Map<?, ?> memories = (Map<?, ?>) doc.get("memories");
        assertThat(number(memories.get("verified_active"))).isEqualTo(
                JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE stage = 'verified' AND status = 'active'"));
        assertThat(number(((Map<?, ?>) memories.get("by_kind")).get("decision"))).isEqualTo(JobsJar.duckLong(home,
                "SELECT count(*) FROM entries WHERE entry_type = 'decision' AND stage = 'verified' AND status = 'active'"))
            .isPositive();
        assertThat(number(((Map<?, ?>) doc.get("tasks")).get("blocked"))).isEqualTo(1);
        assertThat(((List<?>) doc.get("last_runs")).stream()
            .map(r -> String.valueOf(((Map<?, ?>) r).get("status")))
            .toList()).contains("COMPLETED");
        assertThat(number(((Map<?, ?>) doc.get("disk")).get("database"))).isPositive();

        JobsJar.Result text = JobsJar.run(home, new byte[0], "stats");
        assertThat(text.stdout()).contains("code-memory at " + home, "\nmemories    ",
                "\nlag         capture → memory:", "\ndisk        ");
    }

    @Test
    void historyListsTheProjectsSessionsNewestFirstWithTheirSummaries() throws Exception {
        JobsJar.Result history = JobsJar.run(home, new byte[0], "history", "--project", PROJECT, "--json");

        assertThat(history.exit()).as(history.stderr()).isZero();
        List<Map<?, ?>> sessions = history.stdout().lines().<Map<?, ?>>map(l -> (Map<?, ?>) Json.parse(l)).toList();
        assertThat(sessions.stream().map(s -> String.valueOf(s.get("session_id"))).toList()).containsExactly(
                "0d3c2a10-5e7b-4c1d-9f00-000000000003", "0d3c2a10-5e7b-4c1d-9f00-000000000002",
                "0d3c2a10-5e7b-4c1d-9f00-000000000001");
        assertThat(sessions)
            .allSatisfy(s -> assertThat(((Map<?, ?>) s.get("summary")).get("citation").toString()).startsWith("mem:"));
        assertThat(sessions.get(2).get("prompts")).isEqualTo(new Json.JsonNumber("4"));
    }

    @Test
    void exportWritesEveryVerifiedMemoryAsJsonLinesOrMarkdown() throws Exception {
        long verified = JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE stage = 'verified'");

        JobsJar.Result jsonl = JobsJar.run(home, new byte[0], "export", "--project", PROJECT);
        JobsJar.Result markdown = JobsJar.run(home, new byte[0], "export", "--project", PROJECT, "--format",
                "markdown");

        assertThat(jsonl.exit()).as(jsonl.stderr()).isZero();
        List<Map<?, ?>> lines = jsonl.stdout().lines().<Map<?, ?>>map(l -> (Map<?, ?>) Json.parse(l)).toList();
        assertThat(lines).hasSize((int) verified);
        assertThat(lines)
            .allSatisfy(m -> assertThat(m.keySet().stream().map(String::valueOf).toList()).containsExactly("memory_id",
                    "citation", "kind", "status", "project", "session_id", "created_ts", "title", "body", "quotes"));
        long decisions = JobsJar.duckLong(home,
                "SELECT count(*) FROM entries WHERE stage = 'verified' AND entry_type = " + "'decision'");
        assertThat(markdown.stdout()).startsWith("# Memories of " + PROJECT + "\n\n" + verified + " verified memories")
            .contains("\n## Decisions (" + decisions + ")\n", "\n## Preferences (3)\n",
                    "- **Never use wildcard imports in this repo** — 2026-03-02 · [mem:");
    }

    private static long number(Object value) {
        return Long.parseLong(((Json.JsonNumber) value).literal());
    }

}
