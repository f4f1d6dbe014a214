package dev.codememory.jobs.e2e;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Claude Code CLI, run in print mode ({@code claude -p}) against a
 * {@link MessagesStandIn}, in a throwaway {@code HOME} and with nothing of the calling
 * environment but {@code PATH} and the locale.
 */
public final class ClaudeCode {

    /** The environment variable that names the CLI's executable. */
    public static final String CLI_VARIABLE = "CODE_MEMORY_CLAUDE_CLI";

    private static final Pattern HOOK_RUN = Pattern.compile(
            "\\[DEBUG] (?:Hooks: )?(\\w+)(?::\\S+)? \\[(.*)](?: \\(plugin [^)]*\\))? (?:finished|completed) with status (-?\\d+)(?: \\((\\d+)ms\\))?");

    private final Path cli;

    private final Path home;

    private final Map<String, String> env = new LinkedHashMap<>();

    /**
     * Where every run's output and debug log are kept, for reading after a failure: the
     * module's {@code target/claude-code-e2e}.
     */
    public static final Path LOGS = Path.of("target", "claude-code-e2e").toAbsolutePath();

    private static final AtomicInteger RUNS = new AtomicInteger();

    /**
     * One {@code claude -p} run: its exit code, its output, its debug log and the file it
     * is kept in.
     */
    public record Run(int exit, String stdout, String stderr, String debugLog, Path debugFile) {

        /** The hook commands Claude Code ran, as its debug log reports them. */
        public List<HookRun> hookRuns() {
            List<HookRun> hookRuns = new ArrayList<>();
            Matcher m = HOOK_RUN.matcher(this.debugLog);
            while (m.find()) {
                long millis = (m.group(4) == null) ? -1 : Long.parseLong(m.group(4));
                hookRuns.add(new HookRun(m.group(1), m.group(2), Integer.parseInt(m.group(3)), millis));
            }
            return hookRuns;
        }

    }

    /**
     * A hook command as Claude Code ran it: event, command, exit status, duration (-1
     * where the log gives none, as for SessionEnd).
     */
    public record HookRun(String event, String command, int status, long millis) {

    }

    /**
     * The CLI named by {@value #CLI_VARIABLE} (or the system property
     * {@code code-memory.claude-cli}). Without it the calling test is skipped, saying why
     * — except on CI ({@code CI=true}), where it fails: there the suite must run.
     */
    public static Path cli() {
        String named = System.getenv(CLI_VARIABLE);
        if (named == null || named.isBlank()) {
            named = System.getProperty("code-memory.claude-cli");
        }
        if (named == null || named.isBlank()) {
            String reason = CLI_VARIABLE + " is not set: the end-to-end tests need the real Claude Code CLI "
                    + "(npm install --prefix .e2e @anthropic-ai/claude-code@VERSION, as .ci/run does)";
            if ("true".equals(System.getenv("CI"))) {
                fail(reason);
            }
            abort(reason);
        }
        Path cli = Path.of(named).toAbsolutePath();
        if (!Files.isExecutable(cli)) {
            fail(CLI_VARIABLE + " names " + cli + ", which is not an executable file");
        }
        return cli;
    }

    /**
     * Claude Code with {@code home} as its {@code HOME}, talking to the stand-in, with
     * permissions bypassed (as root that needs {@code IS_SANDBOX=1}) and git able to
     * commit.
     */
    public ClaudeCode(Path cli, Path home, MessagesStandIn api) {
        this.cli = cli;
        this.home = home;
        this.env.put("PATH", System.getenv("PATH"));
        this.env.put("LANG", "C.UTF-8");
        this.env.put("HOME", home.toString());
        this.env.put("ANTHROPIC_BASE_URL", api.baseUrl());
        this.env.put("ANTHROPIC_API_KEY", "sk-ant-api03-stand-in-" + "0".repeat(60) + "-AAAAAAAA");
        this.env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        this.env.put("DISABLE_TELEMETRY", "1");
        this.env.put("DISABLE_AUTOUPDATER", "1");
        this.env.put("IS_SANDBOX", "1");
        // offers the model TaskCreate/TaskUpdate (deferred, loaded through ToolSearch)
        this.env.put("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1");
        for (String who : List.of("AUTHOR", "COMMITTER")) {
            this.env.put("GIT_" + who + "_NAME", "End To End");
            this.env.put("GIT_" + who + "_EMAIL", "e2e@example.com");
        }
    }

    /** Sets an environment variable for every later run. */
    public ClaudeCode env(String name, String value) {
        this.env.put(name, value);
        return this;
    }

    public Path home() {
        return this.home;
    }

    /**
     * {@code claude -p PROMPT --permission-mode bypassPermissions} in {@code cwd}, with
     * its debug log, and these arguments after.
     */
    public Run print(Path cwd, String prompt, String... args) throws IOException, InterruptedException {
        String run = "run-" + ProcessHandle.current().pid() + "-" + RUNS.incrementAndGet();
        Files.createDirectories(LOGS);
        Path debug = LOGS.resolve(run + "-debug.log");
        Path out = LOGS.resolve(run + "-stdout.txt");
        Path err = LOGS.resolve(run + "-stderr.txt");
        Files.writeString(LOGS.resolve(run + "-command.txt"), prompt + "\n" + String.join(" ", args) + "\n");
        List<String> command = new ArrayList<>(List.of(this.cli.toString(), "-p", prompt, "--permission-mode",
                "bypassPermissions", "--debug-file", debug.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().putAll(this.env);
        Process p = pb.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("claude -p " + prompt + " did not end within 3 minutes; its debug log: " + debug);
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err),
                Files.exists(debug) ? Files.readString(debug) : "", debug);
    }

}
