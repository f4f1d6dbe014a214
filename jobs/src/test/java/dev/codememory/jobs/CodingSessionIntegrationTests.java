package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A developer's day as Claude Code's hooks record it — a to-do list worked through, a
 * failing test fixed, a heredoc commit, a preference, turns that carry nothing —
 * graduated by the real jar on a real DuckDB file, then what the next morning shows:
 * SessionStart and a "Where were we?" prompt get the continuity block, a "." or Claude
 * Code's own notices get nothing.
 */
class CodingSessionIntegrationTests {

    @TempDir
    static Path tmp;
    static Path home;
    static Path project;

    /**
     * The home as the first graduation left it, before any test spooled hook events into
     * it.
     */
    static Path graduated;

    @BeforeAll
    static void graduateTheFirstDay() throws Exception {
        project = tmp.resolve("shop");
        Files.createDirectories(project.resolve(".git"));
        home = tmp.resolve("home");
        Path hooks = tmp.resolve("day1.jsonl");
        Files.write(hooks, day1());
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();
        JobsJar.Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
        graduated = tmp.resolve("graduated");
        copyTree(home, graduated);
    }

    @Test
    void theToDoListFoldsIntoTasksThatCloseAndTheRestIsRecordedWork() throws Exception {
        assertThat(rows("SELECT title, status FROM entities WHERE entity_type = 'task' ORDER BY title"))
            .containsExactly(List.of("Add the login form", "done"), List.of("Rate-limit the login endpoint", "pending"),
                    List.of("Validate the email field", "in_progress"));
        assertThat(rows("SELECT count(*) FROM entries WHERE entry_type = 'task' AND status = 'active'"))
            .containsExactly(List.of(3L));
        assertThat(rows("SELECT title, body FROM entries WHERE entry_type = 'work'")).containsExactly(
                List.of("Add the login form", "Commit 1a2b3c4: Add the login form\n\n- email and password fields\n"
                        + "- submit disabled until both are filled\n\nFiles: src/login.ts"));
        assertThat(rows("SELECT title FROM entries WHERE entry_type = 'insight'"))
            .containsExactly(List.of("Fixed `npm test`: FAIL src/login.test.ts by changing src/login.ts"));
        assertThat(rows("SELECT title FROM entries WHERE entry_type = 'preference'"))
            .containsExactly(List.of("I prefer small focused commits with imperative subjects"));
        assertThat(rows("SELECT count(*) FROM entries WHERE entry_type = 'exchange'")).containsExactly(List.of(2L));
        assertThat(rows("SELECT count(*) FROM entries WHERE stage <> 'verified'")).containsExactly(List.of(0L));
    }

    @Test
    void theNextSessionStartsWithTheLastSessionItsOpenTasksAndPreferencesEachCited() throws Exception {
        String context = HookEvents.contextOf(HookEvents.hook(home, Map.of("hook_event_name", "SessionStart",
                "session_id", "day-2", "cwd", project.toString(), "source", "startup")));

        assertThat(context).startsWith("Memories from earlier sessions of this project")
            .contains("Last session [mem:", "> Goal: Add a login form with email validation and rate limiting [mem:",
                    "> - Committed: Add the login form [mem:", "> - Completed: Add the login form [mem:",
                    "> - Fixed `npm test`: FAIL src/login.test.ts by changing src/login.ts [mem:",
                    "Open tasks:\n- Validate the email field (in progress)  [mem:",
                    "- Rate-limit the login endpoint (pending)  [mem:",
                    "Preferences:\n- I prefer small focused commits with imperative subjects  [mem:")
            .doesNotContain("Add the login form (");
        assertThat(context.length()).isLessThanOrEqualTo(6_000);
        for (String citation : citations(context)) {
            JobsJar.Result show = JobsJar.run(home, new byte[0], "show", citation);
            assertThat(show.exit()).as("show %s: %s", citation, show.stderr()).isZero();
        }
    }

    @Test
    void aPromptThatAsksWhereWeWereGetsTheContinuityBlockUnlessItsSessionStartGaveItAlready() throws Exception {
        String start = HookEvents.contextOf(HookEvents.hook(home, Map.of("hook_event_name", "SessionStart",
                "session_id", "day-2-start", "cwd", project.toString(), "source", "startup")));

        JobsJar.Result again = HookEvents.hook(home, Map.of("hook_event_name", "UserPromptSubmit", "session_id",
                "day-2-start", "cwd", project.toString(), "prompt", "Where were we?"));
        String resume = HookEvents.contextOf(HookEvents.hook(home, Map.of("hook_event_name", "UserPromptSubmit",
                "session_id", "day-2-untold", "cwd", project.toString(), "prompt", "Where were we?")));

        assertThat(again.stdout()).as("the block is in this session's context already").isEmpty();
        assertThat(home.resolve("logs/hook.log")).content()
            .containsPattern("UserPromptSubmit context: continuity, \\d+ memories already in this session's context, "
                    + "nothing injected");
        assertThat(resume).as("a session whose start injected nothing").isEqualTo(start);
    }

    @Test
    void contentlessFirstPromptsAreNotEvenSearched() throws Exception {
        for (String prompt : List.of("@a", "hi", "Hello there", "good morning")) {
            long searched = searches();
            JobsJar.Result hook = HookEvents.hook(home, Map.of("hook_event_name", "UserPromptSubmit", "session_id",
                    "day-3-" + prompt.length(), "cwd", project.toString(), "prompt", prompt));

            assertThat(hook.stdout()).as(prompt).isEmpty();
            assertThat(searches()).as(prompt).isEqualTo(searched);
        }
    }

    /** How many prompts the hook has searched for, as its log counts them. */
    private static long searches() throws Exception {
        Path log = home.resolve("logs/hook.log");
        return Files.exists(log)
                ? Files.readAllLines(log).stream().filter(l -> l.contains("UserPromptSubmit context:")).count() : 0;
    }

    @Test
    void promptsThatCarryNothingInjectNothing() throws Exception {
        for (String prompt : List.of(".", "ok", "[Request interrupted by user for tool use]", "go ahead",
                "<task-notification>\n<task-id>b7</task-id>\n<status>completed</status>\n<summary>Background "
                        + "command \"npm test\" completed (exit code 0)</summary>\n<result>login form tests pass: "
                        + "FAIL src/login.test.ts fixed</result>\n</task-notification>\n"
                        + "Read the output file to retrieve the result: /tmp/b7.output",
                "<command-message>commit is running…</command-message>\n<command-name>/commit</command-name>\n"
                        + "<command-args>the login form</command-args>")) {
            JobsJar.Result hook = HookEvents.hook(home, Map.of("hook_event_name", "UserPromptSubmit", "session_id",
                    "day-2", "cwd", project.toString(), "prompt", prompt));
            assertThat(hook.exit()).isZero();
            assertThat(hook.stdout()).as(prompt).isEmpty();
        }
    }

    @Test
    void graduatingUnderChangedRulesRebuildsEveryDerivedRowAndKeepsTheCitationsOfWhatSurvives() throws Exception {
        Path copy = graduated;
        List<List<Object>> citationsBefore = JobsJar.duckRows(copy,
                "SELECT memory_id, citation FROM citations ORDER BY memory_id");
        List<Long> countsBefore = GraduationJobIntegrationTests.counts(copy);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + copy.resolve("memory.duckdb"));
                Statement st = c.createStatement()) {
            st.execute("UPDATE derivations SET version = 'graduation-1 (rules-v1)'");
            st.execute("INSERT INTO entries SELECT 'ent_noise', candidate_id, 'task', project, session_id, created_ts,"
                    + " 'The CLI', 'The CLI is blocked by you to.', NULL, quotes_json, 'k', 'verified', 'active', NULL,"
                    + " created_at FROM entries WHERE entry_type = 'preference'");
        }

        JobsJar.Result graduate = JobsJar.run(copy, new byte[0], "--job=graduate");

        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
        assertThat(JobsJar
            .sqliteRows(copy,
                    "SELECT WRITE_COUNT FROM BATCH_STEP_EXECUTION "
                            + "WHERE STEP_NAME = 'applyRulesStep' ORDER BY STEP_EXECUTION_ID DESC LIMIT 1")
            .get(0)
            .get(0)).isInstanceOf(Number.class).matches(n -> ((Number) n).longValue() > 0);
        assertThat(JobsJar.duckRows(copy, "SELECT count(*) FROM entries WHERE entry_id = 'ent_noise'"))
            .containsExactly(List.of(0L));
        assertThat(GraduationJobIntegrationTests.counts(copy)).isEqualTo(countsBefore);
        assertThat(JobsJar.duckRows(copy, "SELECT memory_id, citation FROM citations ORDER BY memory_id"))
            .containsAll(citationsBefore);
        assertThat(JobsJar.duckRows(copy, "SELECT version FROM derivations"))
            .containsExactly(List.of("graduation-3 (rules-v4)"));
    }

    // ---- the first day, as hook events ----

    private static List<String> day1() {
        HookEvents events = new HookEvents(project);
        List<String> lines = new ArrayList<>();
        String s = "day-1";
        lines.add(events.event(s, "2026-03-02T09:00:00Z", "SessionStart", "source", "startup"));
        lines.add(events.event(s, "2026-03-02T09:00:05Z", "UserPromptSubmit", "prompt",
                "Add a login form with email validation and rate limiting"));
        lines.add(todo(s, "2026-03-02T09:00:20Z",
                new String[][] { { "1", "Add the login form", "pending", "high" },
                        { "2", "Validate the email field", "pending", "medium" },
                        { "3", "Rate-limit the login endpoint", "pending", "medium" } }));
        lines.add(todo(s, "2026-03-02T09:00:30Z",
                new String[][] { { "1", "Add the login form", "in_progress", "high" },
                        { "2", "Validate the email field", "pending", "medium" },
                        { "3", "Rate-limit the login endpoint", "pending", "medium" } }));
        lines.add(events.tool(s, "2026-03-02T09:05:00Z", "Bash",
                Map.of("command", "npm test", "description", "run tests"),
                "Error: FAIL src/login.test.ts\n  TypeError: Cannot read properties of undefined (reading 'email')"));
        lines.add(events.tool(s, "2026-03-02T09:07:00Z", "Edit",
                Map.of("file_path", project + "/src/login.ts", "old_string", "form.email", "new_string", "form?.email"),
                Map.of("filePath", project + "/src/login.ts")));
        lines.add(events.tool(s, "2026-03-02T09:08:00Z", "Bash",
                Map.of("command", "npm test", "description", "run tests"),
                HookEvents.bashOut("PASS src/login.test.ts\nTests: 4 passed", "")));
        lines.add(todo(s, "2026-03-02T09:09:00Z",
                new String[][] { { "1", "Add the login form", "completed", "high" },
                        { "2", "Validate the email field", "in_progress", "medium" },
                        { "3", "Rate-limit the login endpoint", "pending", "medium" } }));
        lines.add(events
            .tool(s, "2026-03-02T09:10:00Z", "Bash", Map.of("command", "git add -A && git commit -m \"$(cat <<'EOF'\n"
                    + "Add the login form\n\n- email and password fields\n- submit disabled until both are filled\n\n"
                    + "🤖 Generated with [Claude Code](https://claude.ai/code)\nEOF\n)\"", "description", "commit"),
                    HookEvents.bashOut("[main 1a2b3c4] Add the login form\n 1 file changed, 40 insertions(+)", "")));
        lines.add(events.event(s, "2026-03-02T09:11:00Z", "Stop", "last_assistant_message",
                "The login form is in and its tests pass; email validation is next."));
        lines.add(events.event(s, "2026-03-02T09:12:00Z", "UserPromptSubmit", "prompt", "ok"));
        lines.add(events.event(s, "2026-03-02T09:12:30Z", "Stop", "last_assistant_message", "Continuing."));
        lines.add(events.event(s, "2026-03-02T09:13:00Z", "UserPromptSubmit", "prompt",
                "I prefer small focused commits with imperative subjects."));
        lines.add(events.event(s, "2026-03-02T09:13:20Z", "Stop", "last_assistant_message",
                "Noted, I will keep commits small."));
        lines.add(events.event(s, "2026-03-02T09:30:00Z", "SessionEnd", "reason", "prompt_input_exit"));
        return lines;
    }

    private static String todo(String session, String ts, String[][] items) {
        List<Object> todos = new ArrayList<>();
        for (String[] item : items) {
            Map<String, Object> todo = new LinkedHashMap<>();
            todo.put("content", item[1]);
            todo.put("status", item[2]);
            todo.put("priority", item[3]);
            todo.put("id", item[0]);
            todos.add(todo);
        }
        return new HookEvents(project).tool(session, ts, "TodoWrite", Map.of("todos", todos),
                Map.of("oldTodos", List.of()));
    }

    // ---- helpers ----

    private static List<String> citations(String context) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("mem:[A-Za-z0-9_-]{6}").matcher(context);
        while (m.find()) {
            if (!out.contains(m.group())) {
                out.add(m.group());
            }
        }
        return out;
    }

    private static List<List<Object>> rows(String sql) throws Exception {
        return JobsJar.duckRows(home, sql);
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(p, target);
                }
            }
        }
    }

}
