package dev.codememory.jobs.e2e;

import static dev.codememory.jobs.e2e.MessagesStandIn.asMap;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.JobsJar;
import dev.codememory.jobs.e2e.ClaudeCode.HookRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * code-memory inside the real Claude Code CLI ({@value ClaudeCode#CLI_VARIABLE}), which
 * talks to a scripted {@link MessagesStandIn} instead of the Anthropic API: a
 * {@link WorkSession} runs real tools, its hook events are captured, graduated, and the
 * next session's model request is read for what code-memory put in front of it. Once with
 * the hook registered by {@code install}, once as the plugin ({@code --plugin-dir}),
 * whose slash commands are run without and with {@code serve}.
 */
class ClaudeCodeEndToEndIntegrationTests {

    /**
     * Every event a work session with a subagent produces, each hooked by code-memory
     * (the tenth, PreCompact, comes with {@code /compact}).
     */
    private static final List<String> WORK_SESSION_EVENTS = List.of("SessionStart", "UserPromptSubmit", "PostToolUse",
            "PostToolUseFailure", "TaskCreated", "TaskCompleted", "SubagentStop", "Stop", "SessionEnd");

    /** What a slash command's output must not show: a command that failed. */
    private static final List<String> COMMAND_ERRORS = List.of("Shell command failed", "in use by process", "Exception",
            "exit code 3", "Error:");

    @Nested
    class InstallPath {

        @TempDir
        Path tmp;

        @Test
        void capturesAWorkSessionAndTheNextSessionIsShownItWithCitations() throws Exception {
            Path cli = ClaudeCode.cli();
            Path codeMemory = this.tmp.resolve("code-memory");
            Path home = Files.createDirectories(this.tmp.resolve("home"));
            Path project = WorkSession.gitRepository(this.tmp.resolve("uploader"));
            Path settings = home.resolve(".claude/settings.json");
            JobsJar.Result install = JobsJar.run(codeMemory, new byte[0], "install", "--settings", settings.toString());
            assertThat(install.exit()).as(install.stderr()).isZero();
            assertThat(Files.readString(settings)).contains("jobs.jar hook");

            try (MessagesStandIn api = MessagesStandIn.start()) {
                WorkSession.conversations(project).forEach(api::script);
                ClaudeCode claude = new ClaudeCode(cli, home, api).env("CODE_MEMORY_HOME", codeMemory.toString());

                ClaudeCode.Run work = claude.print(project, WorkSession.PROMPT);

                assertWorkSessionCaptured(work, spooledAfterSessionEnd(codeMemory, 1), api, project);

                ClaudeCode.Run compact = claude.print(project, "/compact", "--continue");

                assertThat(compact.exit()).as(compact.stderr()).isZero();
                assertHooksSucceeded(compact);
                List<Map<String, Object>> events = spooledAfterSessionEnd(codeMemory, 2);
                assertThat(named(events, "PreCompact")).singleElement()
                    .satisfies(e -> assertThat(e.get("trigger")).isEqualTo("manual"));
                assertThat(named(events, "SessionStart")).extracting(e -> e.get("source"))
                    .containsExactly("startup", "resume", "compact");
                assertThat(events).extracting(e -> e.get("session_id")).containsOnly(events.get(0).get("session_id"));
                graduate(codeMemory);
                api.clear();

                ClaudeCode.Run next = claude.print(project, WorkSession.TOPICAL_PROMPT);

                assertThat(next.exit()).as(next.stderr()).isZero();
                assertHooksSucceeded(next);
                String sessionStart = hookContext(api, "SessionStart");
                assertCitedLines(sessionStart, WorkSession.COMMIT_SUBJECT, WorkSession.OPEN_TASK);
                String prompt = hookContext(api, "UserPromptSubmit");
                assertCitedLines(prompt, WorkSession.DONE_TASK);

                // /compact, then --continue: the block the compaction's SessionStart gave
                // is restored with the transcript; the resume must not add it again
                ClaudeCode.Run compactAgain = claude.print(project, "/compact", "--continue");
                assertThat(compactAgain.exit()).as(compactAgain.stderr()).isZero();
                api.clear();

                ClaudeCode.Run resumed = claude.print(project, "Thanks, that is all for today.", "--continue");

                assertThat(resumed.exit()).as(resumed.stderr()).isZero();
                assertHooksSucceeded(resumed);
                String firstRequest = api.requests()
                    .stream()
                    .filter(r -> r.isMessages() && r.body().contains("Thanks, that is all for today."))
                    .findFirst()
                    .orElseThrow()
                    .body();
                assertThat(occurrences(firstRequest, "SessionStart hook additional context")).as(firstRequest)
                    .isEqualTo(1);
                assertThat(firstRequest).contains(WorkSession.OPEN_TASK);

                // install (for the user: HOME) registers the MCP server in
                // ~/.claude.json; the model asks it
                JobsJar.Result mcp = JobsJar.run(codeMemory, Map.of("HOME", home.toString()), new byte[0], "install");
                assertThat(mcp.exit()).as(mcp.stderr()).isZero();
                assertThat(Files.readString(home.resolve(".claude.json"))).contains("\"code-memory\"");
                api.clear();
                api.script(MessagesStandIn.Conversation.of(MCP_PROMPT,
                        MessagesStandIn.Turn.tool("mcp__code-memory__mem-search",
                                Map.of("query", "retry backoff uploader")),
                        MessagesStandIn.Turn.text("That is what we decided.")));

                ClaudeCode.Run asked = claude.print(project, MCP_PROMPT);

                assertThat(asked.exit()).as(asked.stderr()).isZero();
                String result = toolResults(api).stream()
                    .filter(t -> t.contains("mem-search"))
                    .findFirst()
                    .orElseThrow(
                            () -> new AssertionError("no mem-search tool_result was sent back; Claude Code printed: "
                                    + asked.stdout() + asked.stderr() + "; debug log: " + asked.debugFile()));
                assertThat(result).contains("[mem:", WorkSession.COMMIT_SUBJECT);
            }
        }

    }

    @Nested
    @TestClassOrder(ClassOrderer.OrderAnnotation.class)
    class PluginPath {

        @TempDir
        static Path tmp;

        static Path codeMemory;

        static Path project;

        static MessagesStandIn api;

        static ClaudeCode claude;

        static ClaudeCode.Run work;

        static List<Map<String, Object>> workEvents;

        @BeforeAll
        static void workOneSessionAndGraduateIt() throws Exception {
            codeMemory = tmp.resolve("code-memory");
            project = WorkSession.gitRepository(tmp.resolve("uploader"));
            api = MessagesStandIn.start();
            WorkSession.conversations(project).forEach(api::script);
            claude = new ClaudeCode(ClaudeCode.cli(), Files.createDirectories(tmp.resolve("home")), api)
                .env("CODE_MEMORY_HOME", codeMemory.toString())
                .env("CODE_MEMORY_JAR", JobsJar.JAR.toString());
            work = plugin(WorkSession.PROMPT);
            workEvents = spooledAfterSessionEnd(codeMemory, 1);
            graduate(codeMemory);
            // the plugin's MCP server (plugin/.mcp.json), as Claude Code names its tools
            api.script(MessagesStandIn.Conversation.of(MCP_PROMPT,
                    MessagesStandIn.Turn.tool(PLUGIN_TOOLS + "mem-search", Map.of("query", "retry backoff uploader")),
                    MessagesStandIn.Turn.tool(PLUGIN_TOOLS + "mem-stats", Map.of()),
                    MessagesStandIn.Turn.text("That is what we decided.")));
        }

        /**
         * The prefix of the plugin's MCP tools: plugin code-memory, server code-memory.
         */
        static final String PLUGIN_TOOLS = "mcp__plugin_code-memory_code-memory__";

        @AfterAll
        static void stopTheStandIn() {
            if (api != null) {
                api.close();
            }
        }

        static ClaudeCode.Run plugin(String prompt) throws IOException, InterruptedException {
            return claude.print(project, prompt, "--plugin-dir", pluginFolder().toString());
        }

        @Test
        void capturesAWorkSession() throws Exception {
            assertWorkSessionCaptured(work, workEvents, api, project);
            assertThat(work.hookRuns()).allSatisfy(run -> assertThat(run.command()).contains("/bin/code-memory"));
        }

        @Nested
        @Order(1)
        class WithoutServe {

            @Test
            void memorySearchShowsTheModelWhatWasFound() throws Exception {
                assertMemorySearchReachesTheModel();
            }

            @Test
            void memoryStatusShowsTheModelTheStoreAndTheLastSessions() throws Exception {
                assertMemoryStatusReachesTheModel();
            }

            @Test
            void theModelAsksThePluginsMcpServer() throws Exception {
                assertMcpToolsAnswerTheModel("serve: not running");
            }

        }

        @Nested
        @Order(2)
        class WithServe {

            static Process serve;

            static Path serveLog;

            @BeforeAll
            static void startServe() throws Exception {
                serveLog = tmp.resolve("serve.log");
                serve = JobsJar.start(codeMemory, serveLog, "serve");
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
                while (!Files.exists(codeMemory.resolve("serve.sock"))) {
                    assertThat(serve.isAlive()).as("serve is running: %s", serveLog).isTrue();
                    assertThat(System.nanoTime()).as("serve.sock within 2 minutes").isLessThan(deadline);
                    Thread.sleep(100);
                }
            }

            @AfterAll
            static void stopServe() throws Exception {
                if (serve != null) {
                    serve.destroy();
                    serve.waitFor(1, TimeUnit.MINUTES);
                }
            }

            @Test
            void memorySearchShowsTheModelWhatWasFound() throws Exception {
                assertMemorySearchReachesTheModel();
            }

            @Test
            void memoryStatusShowsTheModelTheStoreAndTheLastSessions() throws Exception {
                assertMemoryStatusReachesTheModel();
            }

            @Test
            void theModelAsksThePluginsMcpServer() throws Exception {
                assertMcpToolsAnswerTheModel("serve: running (answered this call)");
            }

        }

        /**
         * After the sessions above only asked the memory (its MCP tools, its commands),
         * the next session's pick-up prompt is still shown the work session as the last
         * one.
         */
        @Nested
        @Order(3)
        class AfterAskingTheMemory {

            @Test
            void theNextSessionOpensWithTheWorkSession() throws Exception {
                graduate(codeMemory);
                api.clear();

                ClaudeCode.Run next = plugin("Where were we?");

                assertThat(next.exit()).as(next.stderr()).isZero();
                // SessionStart's block, or when the cold hook missed its budget on a busy
                // machine, the same block the pick-up prompt gets
                String opened = api.textsSent()
                    .stream()
                    .anyMatch(t -> t.contains("SessionStart hook additional context: "))
                            ? hookContext(api, "SessionStart") : hookContext(api, "UserPromptSubmit");
                assertThat(opened).contains("Last session [mem:", WorkSession.PROMPT)
                    .doesNotContain(MCP_PROMPT, "/code-memory:");
            }

        }

        /**
         * The scripted model calls mem-search and mem-stats of the plugin's server;
         * Claude Code sends back their results: citations of the work session, and who
         * answered.
         */
        static void assertMcpToolsAnswerTheModel(String answeredBy) throws Exception {
            api.clear();
            ClaudeCode.Run asked = plugin(MCP_PROMPT);

            assertThat(asked.exit()).as(asked.stderr()).isZero();
            List<String> results = toolResults(api);
            String why = "Claude Code printed: " + asked.stdout() + asked.stderr() + "; debug log: "
                    + asked.debugFile();
            assertThat(results).as(why)
                .anySatisfy(r -> assertThat(r).startsWith("mem-search").contains("[mem:", WorkSession.COMMIT_SUBJECT));
            assertThat(results).as(why).anySatisfy(r -> assertThat(r).contains(answeredBy));
            assertThat(asked.stdout()).contains("That is what we decided.");
        }

        static void assertMemorySearchReachesTheModel() throws Exception {
            api.clear();
            ClaudeCode.Run search = plugin("/code-memory:memory-search retry backoff uploader");

            assertThat(search.exit()).as(search.stderr()).isZero();
            String shown = slashCommandText(api, search, "## What code-memory found");
            assertThat(shown).contains("[mem:", WorkSession.COMMIT_SUBJECT);
            assertThat(shown).doesNotContain(COMMAND_ERRORS);
        }

        static void assertMemoryStatusReachesTheModel() throws Exception {
            api.clear();
            ClaudeCode.Run status = plugin("/code-memory:memory-status");

            assertThat(status.exit()).as(status.stderr()).isZero();
            String shown = slashCommandText(api, status, "## code-memory stats");
            assertThat(shown).contains("code-memory at " + codeMemory, "## Recent sessions of this project", "[mem:",
                    WorkSession.OPEN_TASK);
            assertThat(shown).doesNotContain(COMMAND_ERRORS);
        }

    }

    /**
     * The work session ran its tools (the commit is in the repository), the model saw the
     * failing command fail, and every hook event it produced is in the spool, each hook
     * run having exited 0.
     */
    static void assertWorkSessionCaptured(ClaudeCode.Run work, List<Map<String, Object>> events, MessagesStandIn api,
            Path project) throws Exception {
        assertThat(work.exit()).as(work.stderr()).isZero();
        assertThat(work.stdout()).contains(WorkSession.LAST_REPLY);
        assertThat(WorkSession.git(project, "log", "--format=%s")).isEqualTo(WorkSession.COMMIT_SUBJECT + "\n");
        assertThat(api.requests()).as("the subagent's conversation reached the model")
            .anyMatch(r -> r.isMessages() && r.body().contains(WorkSession.SUBAGENT_PROMPT)
                    && !r.body().contains(WorkSession.PROMPT));
        assertHooksSucceeded(work);

        assertThat(events).extracting(e -> e.get("hook_event_name"))
            .as("events spooled (debug log %s)", work.debugFile())
            .containsAll(WORK_SESSION_EVENTS);
        assertThat(work.hookRuns()).extracting(HookRun::event).containsAll(WORK_SESSION_EVENTS);
        assertThat(events).filteredOn(e -> "UserPromptSubmit".equals(e.get("hook_event_name")))
            .extracting(e -> e.get("prompt"))
            .contains(WorkSession.PROMPT);
        assertThat(events).filteredOn(e -> "PostToolUse".equals(e.get("hook_event_name")))
            .extracting(e -> e.get("tool_name"))
            .contains("TaskCreate", "Write", "Edit", "Bash", "TaskUpdate", "Agent");
        assertThat(events).filteredOn(e -> "PostToolUseFailure".equals(e.get("hook_event_name")))
            .singleElement()
            .satisfies(e -> assertThat(String.valueOf(e.get("error"))).contains("Exit code 3"));
        assertThat(events).filteredOn(e -> "TaskCreated".equals(e.get("hook_event_name")))
            .extracting(e -> e.get("task_subject"))
            .containsExactly(WorkSession.DONE_TASK, WorkSession.OPEN_TASK);
        assertThat(events).filteredOn(e -> "TaskCompleted".equals(e.get("hook_event_name")))
            .extracting(e -> e.get("task_subject"))
            .containsExactly(WorkSession.DONE_TASK);
        assertThat(events).filteredOn(e -> "SubagentStop".equals(e.get("hook_event_name")))
            .extracting(e -> e.get("last_assistant_message"))
            .containsExactly(WorkSession.SUBAGENT_ANSWER);
        assertThat(events).extracting(e -> e.get("session_id")).doesNotContainNull();
    }

    static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

    /** Each text is on a line of the context that carries a citation. */
    static void assertCitedLines(String context, String... texts) {
        for (String text : texts) {
            assertThat(context.lines()).as("a line with %s and [mem: in:%n%s", text, context)
                .anyMatch(line -> line.contains(text) && line.contains("[mem:"));
        }
    }

    static void assertHooksSucceeded(ClaudeCode.Run run) {
        assertThat(run.hookRuns()).as("hook runs in %s", run.debugFile()).isNotEmpty().allSatisfy(hook -> {
            assertThat(hook.status()).as("%s exit status", hook.event()).isZero();
            assertThat(hook.command()).contains("hook");
        });
    }

    static void graduate(Path codeMemory) throws Exception {
        JobsJar.Result graduate = JobsJar.run(codeMemory, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stdout() + graduate.stderr()).isZero();
    }

    /**
     * The hook events in the spool once {@code sessions} SessionEnd events are there:
     * Claude Code gives SessionEnd hooks a short budget at exit and need not wait for
     * them to finish.
     */
    static List<Map<String, Object>> spooledAfterSessionEnd(Path codeMemory, int sessions) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<Map<String, Object>> events = spooledEvents(codeMemory);
        while (named(events, "SessionEnd").size() < sessions && System.nanoTime() < deadline) {
            Thread.sleep(100);
            events = spooledEvents(codeMemory);
        }
        return events;
    }

    static List<Map<String, Object>> named(List<Map<String, Object>> events, String hookEventName) {
        return events.stream().filter(e -> hookEventName.equals(e.get("hook_event_name"))).toList();
    }

    /** The hook events in the spool, in the order they were appended. */
    static List<Map<String, Object>> spooledEvents(Path codeMemory) throws IOException {
        List<Map<String, Object>> events = new ArrayList<>();
        try (Stream<Path> files = Files.list(codeMemory.resolve("spool"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(file)) {
                    Map<String, Object> envelope = asMap(Json.parse(line));
                    if (envelope.containsKey("event")) { // not a record of what was
                                                         // injected
                        events.add(asMap(envelope.get("event")));
                    }
                }
            }
        }
        return events;
    }

    /**
     * What Claude Code showed the model from one event's hook: the text after
     * "{@code EVENT} hook additional context: " up to the next hook's context or the end
     * of the text.
     */
    static String hookContext(MessagesStandIn api, String event) {
        String marker = event + " hook additional context: ";
        String text = api.textsSent()
            .stream()
            .filter(t -> t.contains(marker))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no request carried " + marker + "; texts with hook context: "
                    + api.textsSent().stream().filter(t -> t.contains("hook additional context")).toList()));
        String context = text.substring(text.indexOf(marker) + marker.length());
        int next = context.indexOf(" hook additional context: ");
        return (next < 0) ? context : context.substring(0, context.lastIndexOf('\n', next) + 1);
    }

    /** The text of the user message that a slash command expanded to. */
    static String slashCommandText(MessagesStandIn api, ClaudeCode.Run run, String heading) {
        return api.textsSent()
            .stream()
            .filter(t -> t.contains(heading))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the model was not sent the command's output (" + heading
                    + "); Claude Code printed: " + run.stdout() + run.stderr() + "; debug log: " + run.debugFile()));
    }

    /** A prompt the scripted model answers by calling code-memory's MCP tool. */
    static final String MCP_PROMPT = "What did we do about retries in the uploader? Look it up in memory.";

    /** The text of every tool_result Claude Code has sent the model so far. */
    static List<String> toolResults(MessagesStandIn api) {
        List<String> out = new java.util.ArrayList<>();
        for (Map<String, Object> request : api.messages()) {
            for (Object message : MessagesStandIn.asList(request.get("messages"))) {
                for (Object block : MessagesStandIn.asList(MessagesStandIn.asMap(message).get("content"))) {
                    Map<String, Object> b = MessagesStandIn.asMap(block);
                    if ("tool_result".equals(b.get("type"))) {
                        Object content = b.get("content");
                        out.add(content instanceof String text ? text
                                : String.join("\n", MessagesStandIn.texts(Map.of("content", content))));
                    }
                }
            }
        }
        return out;
    }

    static Path pluginFolder() {
        return JobsJar.JAR.getParent().getParent().getParent().resolve("plugin");
    }

}
