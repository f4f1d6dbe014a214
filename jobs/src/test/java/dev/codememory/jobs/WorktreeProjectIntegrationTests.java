package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.JobsJar.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One repository is one project across its git worktrees, made with the real
 * {@code git worktree add}: what was said in the main checkout is found from a worktree
 * and the other way round, and a home made before worktrees were joined (each worktree a
 * project of its own) is moved over by the next graduation.
 */
class WorktreeProjectIntegrationTests {

    @TempDir
    Path tmp;

    @Test
    void memoryOfEveryWorktreeIsFoundFromEveryOtherAndAnOldHomeIsJoined() throws Exception {
        Path home = tmp.resolve("home");
        Path main = tmp.resolve("billing");
        git(tmp, "init", "-q", "-b", "main", main.toString());
        git(main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
        Path worktree = tmp.resolve("billing-worktrees/limiter");
        git(main, "worktree", "add", "-q", "-b", "limiter", worktree.toString());
        Path gitFile = worktree.resolve(".git");
        String pointer = Files.readString(gitFile);

        // a home of the release before: the worktree was a project of its own (here: its
        // .git file points at no repository while the session is graduated)
        Files.writeString(gitFile, "gitdir: " + tmp.resolve("gone/.git/worktrees/limiter") + "\n");
        List<String> lines = new ArrayList<>();
        session(lines, worktree, "s-wt", "2024-05-02T10:00:00Z", "Why does the invoice export retry on HTTP 429?",
                "Because the billing API rate-limits exports to 10 requests a second, we back off and retry.");
        graduate(home, lines, "worktree.jsonl");
        assertThat(JobsJar.duckRows(home, "SELECT DISTINCT project FROM entries ORDER BY 1"))
            .containsExactly(List.of(worktree.toString()));

        Files.writeString(gitFile, pointer);
        lines.clear();
        session(lines, main, "s-main", "2024-05-03T10:00:00Z", "Which port does the invoice collector listen on?",
                "The collector listens on port 7431, set in collector.yaml.");
        graduate(home, lines, "main.jsonl");

        assertThat(home.resolve("logs/jobs.log")).content()
            .contains("worktree " + worktree + " joined its repository's project " + main);
        assertThat(JobsJar.duckRows(home, "SELECT DISTINCT project FROM events ORDER BY 1"))
            .containsExactly(List.of(main.toString()));
        assertThat(JobsJar.duckRows(home, "SELECT DISTINCT project FROM entries ORDER BY 1"))
            .containsExactly(List.of(main.toString()));
        assertThat(JobsJar.duckRows(home, "SELECT count(*) FROM entries WHERE session_id = 's-wt'").get(0).get(0))
            .isNotEqualTo(0L);

        Result fromMain = JobsJar.run(home, new byte[0], "query", "--project", main.toString(), "--json", "--top-k",
                "3", "why do invoice exports retry on 429");
        assertThat(fromMain.exit()).as(fromMain.stderr()).isZero();
        assertThat(firstSummary(fromMain)).isEqualTo("Why does the invoice export retry on HTTP 429?");
        Result fromWorktree = JobsJar.run(home, new byte[0], "query", "--project", worktree.resolve("src").toString(),
                "--json", "--top-k", "3", "which port does the collector listen on");
        assertThat(fromWorktree.exit()).as(fromWorktree.stderr()).isZero();
        assertThat(firstSummary(fromWorktree)).isEqualTo("Which port does the invoice collector listen on?");

        Map<String, Object> prompt = new LinkedHashMap<>();
        prompt.put("hook_event_name", "UserPromptSubmit");
        prompt.put("session_id", "s-next");
        prompt.put("cwd", worktree.toString());
        prompt.put("prompt", "which port does the invoice collector listen on?");
        assertThat(HookEvents.contextOf(HookEvents.hook(home, prompt))).contains("7431");

        Result again = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(again.exit()).as(again.stderr()).isZero();
        assertThat(Files.readString(home.resolve("logs/jobs.log")).split("joined its repository's project", -1))
            .hasSize(2);
    }

    private static void graduate(Path home, List<String> lines, String file) throws Exception {
        Path hooks = home.getParent().resolve(file);
        Files.write(hooks, lines, StandardCharsets.UTF_8);
        Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString());
        assertThat(imported.exit()).as(imported.stderr()).isZero();
        Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
    }

    private static String firstSummary(Result r) {
        List<?> results = (List<?>) ((Map<?, ?>) Json.parse(r.stdout().strip())).get("results");
        assertThat(results).as(r.stdout()).isNotEmpty();
        return (String) ((Map<?, ?>) results.get(0)).get("summary");
    }

    private static void session(List<String> lines, Path cwd, String session, String start, String prompt,
            String reply) {
        HookEvents events = new HookEvents(cwd);
        lines.add(events.event(session, start, "SessionStart", "source", "startup"));
        lines.add(events.event(session, start.replace(":00:00Z", ":01:00Z"), "UserPromptSubmit", "prompt", prompt));
        lines.add(events.event(session, start.replace(":00:00Z", ":02:00Z"), "Stop", "last_assistant_message", reply));
        lines.add(events.event(session, start.replace(":00:00Z", ":03:00Z"), "SessionEnd", "reason", "other"));
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
    }

}
