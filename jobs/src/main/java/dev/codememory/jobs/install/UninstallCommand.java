package dev.codememory.jobs.install;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.home.UserHome;
import dev.codememory.jobs.command.ExitCode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code uninstall [--settings F] [--project] [--service] [--dry-run]}: takes exactly our
 * hook entries out of the settings file (those whose command runs {@code jobs.jar hook}),
 * leaving every other byte as it is, after a backup; {@code --service} also removes the
 * user service {@code install --service} wrote. The store itself is kept.
 */
@Command(name = "uninstall", header = "take the hook out of Claude Code's settings again",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = { "Removes the code-memory hook entries (and nothing else) from ~/.claude/settings.json (or the "
                + "file given), after a backup. Memories stay in ~/.code-memory; delete that folder to remove them." },
        footer = { "",
                "Exit codes: 0 removed (or there was nothing to remove), 1 the settings file is not valid JSON or "
                        + "cannot be written (nothing is changed), 2 bad usage." })
public final class UninstallCommand implements Callable<Integer> {

    @Option(names = "--settings", paramLabel = "FILE",
            description = "the settings file (default: " + "~/.claude/settings.json)")
    Path settings;

    @Option(names = "--project", description = "the current repository's .claude/settings.json instead")
    boolean project;

    @Option(names = "--service", description = "also remove the user service that runs `serve`")
    boolean service;

    @Option(names = "--desktop",
            description = "take the MCP server out of Claude Desktop's claude_desktop_config.json instead")
    boolean desktop;

    @Option(names = "--dry-run", description = "print the change as a diff, write nothing")
    boolean dryRun;

    private final PrintStream out;

    private final PrintStream err;

    public UninstallCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        if (desktop) {
            return unregisterMcp(McpServers.desktopConfig(), "Claude Desktop");
        }
        Path file = SettingsFile.choose(settings, project);
        try {
            SettingsFile.Applied applied = SettingsFile.edit(file, ClaudeSettings::uninstall, "uninstall", dryRun, out,
                    err);
            if (applied == null) {
                return ExitCode.FAILED;
            }
            if (!applied.changed()) {
                out.println("no code-memory hook in " + file + ": nothing changed");
            }
            else if (applied.written()) {
                out.println("removed the code-memory hook from " + file + " (backup: " + applied.backup().getFileName()
                        + ")");
            }
            if (service) {
                removeService();
            }
            if (settings == null && !project) {
                return unregisterMcp(McpServers.claudeCodeConfig(), "Claude Code");
            }
            return ExitCode.OK;
        }
        catch (IOException e) {
            err.println("uninstall failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private int unregisterMcp(Path file, String client) {
        try {
            SettingsFile.Applied applied = SettingsFile.edit(file, McpServers::uninstall, "uninstall", dryRun, out,
                    err);
            if (applied == null) {
                return ExitCode.FAILED;
            }
            if (!applied.changed()) {
                out.println("no code-memory MCP server for " + client + " in " + file + ": nothing changed");
            }
            else if (applied.written()) {
                out.println("removed the MCP server '" + McpServers.NAME + "' for " + client + " from " + file
                        + " (backup: " + applied.backup().getFileName() + ")");
            }
            return ExitCode.OK;
        }
        catch (IOException e) {
            err.println("uninstall failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private void removeService() throws IOException {
        Path home = UserHome.directory();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        UserService unit = UserService.forThisSystem(home, java, Path.of("jobs.jar"), CodeMemoryHome.resolve().root());
        if (unit == null || !Files.exists(unit.file())) {
            out.println("no code-memory user service installed");
            return;
        }
        out.println("stop it first with: " + unit.stopHint());
        if (dryRun) {
            out.println("would remove " + unit.file());
        }
        else {
            Files.delete(unit.file());
            out.println("removed " + unit.file());
        }
    }

}
