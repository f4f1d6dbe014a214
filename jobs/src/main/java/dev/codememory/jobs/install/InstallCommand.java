package dev.codememory.jobs.install;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.home.UserHome;
import dev.codememory.jobs.command.ExitCode;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code install [--settings F] [--project] [--service] [--dry-run]}: registers the hook
 * with Claude Code for every event code-memory uses ({@link ClaudeSettings#EVENTS}), as
 * the fast command with this install's absolute paths, keeping every other key and hook
 * of the settings file as it is; backs the file up first. Running it again changes
 * nothing. {@code --service} also writes a user service that runs {@code serve}.
 */
@Command(name = "install", header = "register the hook with Claude Code (and serve as a user service)",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Registers the code-memory hook with Claude Code for SessionStart, UserPromptSubmit, PostToolUse, "
                        + "PostToolUseFailure, Stop, SubagentStop, PreCompact, SessionEnd, TaskCreated and TaskCompleted, in "
                        + "~/.claude/settings.json "
                        + "(or the file given). Every other setting and hook stays as it is; the file is backed up beside "
                        + "itself first; a second install changes nothing; `uninstall` takes the entries out again.",
                "The hook command is the fast one: this jar and its class-data archive (hook.jsa), by absolute path." },
        footer = { "", "Exit codes: 0 installed (or already installed), 1 the settings file is not valid JSON or "
                + "cannot be written (nothing is changed), 2 bad usage." })
public final class InstallCommand implements Callable<Integer> {

    @Option(names = "--settings", paramLabel = "FILE",
            description = "the settings file (default: " + "~/.claude/settings.json)")
    Path settings;

    @Option(names = "--project", description = "the current repository's .claude/settings.json instead (shared with "
            + "everyone who clones it; --settings .claude/settings.local.json keeps it to you)")
    boolean project;

    @Option(names = "--service", description = "also install `serve` as a user service: a systemd user unit (Linux) "
            + "or a launchd agent (macOS)")
    boolean service;

    @Option(names = "--desktop", description = "register the MCP server with Claude Desktop instead "
            + "(claude_desktop_config.json); the hook is left alone")
    boolean desktop;

    @Option(names = "--no-mcp",
            description = "do not register the MCP server (tools mem-search, mem-details, …) in " + "~/.claude.json")
    boolean noMcp;

    @Option(names = "--dry-run", description = "print the change as a diff, write nothing")
    boolean dryRun;

    private final PrintStream out;

    private final PrintStream err;

    public InstallCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Path jar;
        try {
            jar = runningJar();
        }
        catch (IllegalStateException e) {
            err.println("install: " + e.getMessage());
            return ExitCode.USAGE;
        }
        if (desktop) {
            return registerMcp(McpServers.desktopConfig(), jar, false, "Claude Desktop");
        }
        String command = hookCommand(jar);
        Path file = SettingsFile.choose(settings, project);
        try {
            SettingsFile.Applied applied = SettingsFile.edit(file, before -> ClaudeSettings.install(before, command),
                    "install", dryRun, out, err);
            if (applied == null) {
                return ExitCode.FAILED;
            }
            if (!applied.changed()) {
                out.println("already installed in " + file + ": nothing changed");
            }
            else if (applied.written()) {
                Path backup = applied.backup();
                out.println("installed the code-memory hook for " + ClaudeSettings.EVENTS.size() + " events in " + file
                        + (backup == null ? "" : " (backup: " + backup.getFileName() + ")"));
                out.println("hook command: " + command);
                out.println("it takes effect in Claude Code sessions started from now on");
            }
            if (settings == null && !project && !noMcp) {
                int registered = registerMcp(McpServers.claudeCodeConfig(), jar, true, "Claude Code");
                if (registered != ExitCode.OK) {
                    return registered;
                }
            }
            if (service) {
                return installService(jar);
            }
            out.println("graduation runs with `java -jar " + jar + " serve` (install --service keeps it running), or "
                    + "by hand with --job=graduate");
            return ExitCode.OK;
        }
        catch (IOException e) {
            err.println("install failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    /**
     * Registers the MCP server as {@code code-memory} in a client's configuration file,
     * with the care taken for settings.json: backup, atomic write, every other byte kept,
     * nothing written when it is already there.
     */
    private int registerMcp(Path file, Path jar, boolean claudeCode, String client) {
        java.util.Map<String, Object> entry = McpServers.entry(Path.of(System.getProperty("java.home"), "bin", "java"),
                jar, claudeCode, System.getenv("CODE_MEMORY_HOME"));
        try {
            SettingsFile.Applied applied = SettingsFile.edit(file, before -> McpServers.install(before, entry),
                    "install", dryRun, out, err);
            if (applied == null) {
                return ExitCode.FAILED;
            }
            if (!applied.changed()) {
                out.println("the MCP server is already registered for " + client + " in " + file + ": nothing changed");
            }
            else if (applied.written()) {
                out.println("registered the MCP server '" + McpServers.NAME + "' for " + client + " in " + file
                        + (applied.backup() == null ? "" : " (backup: " + applied.backup().getFileName() + ")"));
                out.println("mcp command: " + McpServers.commandLine(entry));
            }
            return ExitCode.OK;
        }
        catch (IOException e) {
            err.println("install failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private int installService(Path jar) throws IOException {
        UserService unit = UserService.forThisSystem(UserHome.directory(),
                Path.of(System.getProperty("java.home"), "bin", "java"), jar, CodeMemoryHome.resolve().root());
        if (unit == null) {
            err.println("install --service: no user service manager known for " + System.getProperty("os.name")
                    + "; run `java -jar " + jar + " serve` at login instead");
            return ExitCode.FAILED;
        }
        String existing = Files.exists(unit.file()) ? Files.readString(unit.file(), StandardCharsets.UTF_8) : null;
        if (unit.content().equals(existing)) {
            out.println("the service is already installed: " + unit.file());
        }
        else if (dryRun) {
            out.println("would write " + unit.file() + ":");
            out.print(unit.content());
        }
        else {
            Files.createDirectories(unit.file().getParent());
            SettingsFile.write(unit.file(), unit.content());
            out.println("wrote " + unit.file() + ":");
            out.print(unit.content());
        }
        out.println("start it with: " + unit.startHint());
        return ExitCode.OK;
    }

    /**
     * The JVM flags that make the hook start fast, in the hook command and in the build's
     * training run of the class-data archive (jobs/pom.xml, and plugin/bin/code-memory,
     * which say them again): JVM logging off, so a stale archive cannot write to stdout;
     * C1 only, one compiler thread; G1, because only with G1 does Java 17 map the
     * archived heap objects and the archived module graph (with the serial collector the
     * JVM builds its module graph at every start: ~10 ms a hook call); no perf-data file.
     */
    public static final List<String> HOOK_JVM_FLAGS = List.of("-Xlog:disable", "-Xlog:all=error:stderr",
            "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseG1GC", "-XX:-UsePerfData");

    /**
     * What follows {@code java} in the hook command: the class-data archive beside the
     * jar when it is there, {@link #HOOK_JVM_FLAGS}, and the jar.
     */
    public static List<String> hookArguments(Path jar) {
        Path archive = jar.resolveSibling("hook.jsa");
        List<String> arguments = new ArrayList<>();
        if (Files.exists(archive)) {
            arguments.add("-XX:SharedArchiveFile=" + archive);
        }
        arguments.addAll(HOOK_JVM_FLAGS);
        arguments.addAll(List.of("-jar", jar.toString(), "hook"));
        return arguments;
    }

    /** The command Claude Code runs for every event, as one shell line. */
    public static String hookCommand(Path jar) {
        StringBuilder command = new StringBuilder("java");
        for (String argument : hookArguments(jar)) {
            command.append(' ').append(shellQuote(argument));
        }
        return command.toString();
    }

    /** A path as one shell word: as it is when it is plain, else in single quotes. */
    static String shellQuote(String s) {
        return s.matches("[A-Za-z0-9_./+:@%=,-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    /** The jobs.jar this command runs from. */
    static Path runningJar() {
        try {
            Path location = Path.of(InstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(location) || !location.getFileName().toString().endsWith(".jar")) {
                throw new IllegalStateException("run it from the built jar: ./mvnw -B package -DskipTests && "
                        + "java -jar jobs/target/jobs.jar install");
            }
            return location.toAbsolutePath().normalize();
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where jobs.jar is: " + e.getMessage());
        }
    }

}
