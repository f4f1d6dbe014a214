package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.JobsJar.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Talking to the memory does not displace the work: after a working session is graduated,
 * sessions that only ask the memory — the same question ten times, answered by restating
 * the memory with its citation, a pick-up prompt, a {@code mem-search} call, a
 * {@code mem-save} — leave the answer first in {@code query}, and the next SessionStart
 * opens with the working session, before and after they are graduated; the save is shown
 * as the preference it states. The jar, real DuckDB and the real embedding model.
 */
class MemoryTalkIntegrationTests {

    static final String QUESTION = "why did we add the rate limiter?";

    static final String WORK_PROMPT = "Add a rate limiter to the billing client. We decided to add the rate limiter "
            + "because the billing API throttles us with 429 errors during the nightly sync.";

    static final String SAVED = "Remember that we always run the billing sync after midnight UTC";

    @TempDir
    Path tmp;

    @Test
    void askingTheMemoryTenTimesKeepsTheAnswerFirstAndTheWorkSessionLast() throws Exception {
        Path home = tmp.resolve("home");
        Path project = Files.createDirectories(tmp.resolve("billing"));
        Instant t0 = Instant.now().minus(5, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        List<String> work = new ArrayList<>();
        work.add(event(project, "s-work", t0, "SessionStart", Map.of("source", "startup")));
        work.add(event(project, "s-work", t0.plusSeconds(10), "UserPromptSubmit", Map.of("prompt", WORK_PROMPT)));
        work.add(event(project, "s-work", t0.plusSeconds(20), "PostToolUse",
                Map.of("tool_name", "Edit", "tool_input",
                        Map.of("file_path", project.resolve("billing/Client.java").toString(), "old_string", "a",
                                "new_string", "b"),
                        "tool_response", Map.of("filePath", project.resolve("billing/Client.java").toString()))));
        work.add(event(project, "s-work", t0.plusSeconds(30), "Stop",
                Map.of("last_assistant_message", "The billing client now waits for a token before each call.")));
        work.add(event(project, "s-work", t0.plusSeconds(40), "SessionEnd", Map.of("reason", "other")));
        importAndRun(home, work, "--job=graduate");

        Map<?, ?> before = top(home, project);
        String reason = (String) before.get("memory_id");
        String citation = (String) before.get("citation");
        List<Object> sessions = ((List<?>) before.get("sources")).stream()
            .map(src -> (Object) ((Map<?, ?>) src).get("session_id"))
            .toList();
        assertThat(sessions).containsOnly("s-work");

        List<String> talk = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            String session = "s-ask-" + i;
            Instant at = t0.plus(i * 10L, ChronoUnit.MINUTES);
            talk.add(event(project, session, at, "UserPromptSubmit", Map.of("prompt", QUESTION)));
            talk.add(event(project, session, at.plusSeconds(5), "Stop",
                    Map.of("last_assistant_message", "We decided to add the rate limiter because the billing API "
                            + "throttles us with 429 errors during the nightly sync [" + citation + "].")));
            talk.add(event(project, session, at.plusSeconds(10), "SessionEnd", Map.of("reason", "other")));
        }
        Instant later = t0.plus(2, ChronoUnit.HOURS);
        talk.add(event(project, "s-pickup", later, "UserPromptSubmit", Map.of("prompt", "where were we?")));
        talk.add(event(project, "s-pickup", later.plusSeconds(5), "Stop",
                Map.of("last_assistant_message", "We were adding the rate limiter to the billing client.")));
        talk.add(event(project, "s-search", later.plusSeconds(60), "UserPromptSubmit",
                Map.of("prompt", "Search code-memory for the rate limiter")));
        talk.add(event(project, "s-search", later.plusSeconds(65), "PostToolUse",
                Map.of("tool_name", "mcp__code-memory__mem-search", "tool_input", Map.of("query", "rate limiter"),
                        "tool_response", "mem-search: 1 memory")));
        talk.add(event(project, "s-search", later.plusSeconds(70), "Stop",
                Map.of("last_assistant_message", "Found why we added it [" + citation + "].")));
        // what mem-save spools: the user's words as a session of its own, then its end
        String save = "mem-save-4b1e0c55-6f7a-4a43-9d0b-2a1c7c6f1d10";
        talk.add(event(project, save, later.plusSeconds(120), "UserPromptSubmit", Map.of("prompt", SAVED)));
        talk.add(event(project, save, later.plusSeconds(121), "SessionEnd", Map.of("reason", "mem-save")));
        importAndRun(home, talk, "--job=ingest");

        String ingested = sessionStart(home, project);
        assertThat(ingested).contains("Last session [mem:", "Add a rate limiter to the billing client")
            .doesNotContain("Where the work stood", QUESTION, "where were we", "Search code-memory");

        Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();

        assertThat(top(home, project).get("memory_id")).isEqualTo(reason);
        assertThat(JobsJar.duckRows(home, """
                SELECT entry_type, count(*) FROM entries
                WHERE session_id LIKE 's-ask-%' OR session_id IN ('s-pickup', 's-search')
                GROUP BY ALL""")).isEmpty();
        assertThat(JobsJar.duckRows(home,
                "SELECT entry_type, title, stage FROM entries WHERE session_id = '" + save + "'"))
            .containsExactly(List.of("preference", "we always run the billing sync after midnight UTC", "verified"));
        String graduated = sessionStart(home, project);
        assertThat(graduated)
            .contains("Last session [mem:", "Add a rate limiter to the billing client", "Preferences:",
                    "we always run the billing sync after midnight UTC")
            .doesNotContain("Where the work stood", QUESTION, "Remember that");
    }

    private void importAndRun(Path home, List<String> lines, String job) throws Exception {
        Path hooks = Files.createTempFile(tmp, "hooks", ".jsonl");
        Files.write(hooks, lines, StandardCharsets.UTF_8);
        Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString());
        assertThat(imported.exit()).as(imported.stderr()).isZero();
        Result run = JobsJar.run(home, new byte[0], job);
        assertThat(run.exit()).as(run.stderr()).isZero();
    }

    private static Map<?, ?> top(Path home, Path project) throws Exception {
        Result r = JobsJar.run(home, new byte[0], "query", "--project", project.toString(), "--json", "--top-k", "3",
                QUESTION);
        assertThat(r.exit()).as(r.stderr()).isZero();
        List<?> results = (List<?>) ((Map<?, ?>) Json.parse(r.stdout().strip())).get("results");
        assertThat(results).as(r.stdout()).isNotEmpty();
        return (Map<?, ?>) results.get(0);
    }

    private static String sessionStart(Path home, Path project) throws Exception {
        return HookEvents.contextOf(HookEvents.hook(home, Map.of("hook_event_name", "SessionStart", "session_id",
                "s-next", "cwd", project.toString(), "source", "startup")));
    }

    private static String event(Path project, String session, Instant ts, String name, Map<String, Object> fields) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("hook_event_name", name);
        e.put("session_id", session);
        e.put("transcript_path", "/nowhere/" + session + ".jsonl");
        e.put("cwd", project.toString());
        e.putAll(fields);
        e.put("timestamp", ts.toString());
        return Json.write(e);
    }

}
