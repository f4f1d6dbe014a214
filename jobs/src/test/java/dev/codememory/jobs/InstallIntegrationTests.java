package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.install.InstallCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code install} and {@code uninstall} on real settings files, through the built jar.
 */
class InstallIntegrationTests {

    /** Someone's settings: other keys and other hooks, one of them on an event we use. */
    private static final String SETTINGS = """
            {
              "model": "opus",
              "permissions": {
                "allow": ["Bash(npm run test:*)"]
              },
              "hooks": {
                "PreToolUse": [
                  {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": "~/bin/guard.sh"}]
                  }
                ],
                "SessionStart": [
                  {
                    "hooks": [{"type": "command", "command": "echo hello"}]
                  }
                ]
              }
            }
            """;

    @TempDir
    Path tmp;

    @Test
    void installKeepsEveryOtherByteIsIdempotentAndUninstallGivesBackTheOriginal() throws Exception {
        Path settings = tmp.resolve("claude/settings.json");
        Files.createDirectories(settings.getParent());
        Files.writeString(settings, SETTINGS);
        String command = InstallCommand.hookCommand(JobsJar.JAR);

        JobsJar.Result dryRun = JobsJar.run(home(), new byte[0], "install", "--settings", settings.toString(),
                "--dry-run");
        assertThat(dryRun.exit()).as(dryRun.stderr()).isZero();
        assertThat(dryRun.stdout()).startsWith("--- " + settings + "\n+++ " + settings + "\n@@ ")
            .contains("+        \"hooks\": [\n", "+            \"command\": " + quote(command) + "\n",
                    "dry run: " + settings + " was not changed");
        assertThat(Files.readString(settings)).isEqualTo(SETTINGS);

        JobsJar.Result install = JobsJar.run(home(), new byte[0], "install", "--settings", settings.toString());
        assertThat(install.exit()).as(install.stderr()).isZero();
        assertThat(install.stdout()).contains("installed the code-memory hook for 10 events in " + settings,
                "hook command: " + command);
        String installed = Files.readString(settings);
        Map<?, ?> hooks = (Map<?, ?>) ((Map<?, ?>) Json.parse(installed)).get("hooks");
        assertThat(hooks.keySet().stream().map(String::valueOf).toList()).containsExactly("PreToolUse", "SessionStart",
                "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "PreCompact",
                "SessionEnd", "TaskCreated", "TaskCompleted");
        assertThat(installed).contains("\"command\": \"echo hello\"").contains("\"model\": \"opus\"");
        assertThat(command).contains("-XX:SharedArchiveFile=" + JobsJar.JAR.resolveSibling("hook.jsa"),
                "-jar " + JobsJar.JAR + " hook");
        List<Path> backups = backups(settings);
        assertThat(backups).hasSize(1);
        assertThat(Files.readString(backups.get(0))).isEqualTo(SETTINGS);

        JobsJar.Result again = JobsJar.run(home(), new byte[0], "install", "--settings", settings.toString());
        assertThat(again.exit()).isZero();
        assertThat(again.stdout()).contains("already installed in " + settings + ": nothing changed");
        assertThat(Files.readString(settings)).isEqualTo(installed);
        assertThat(backups(settings)).hasSize(1);

        JobsJar.Result uninstall = JobsJar.run(home(), new byte[0], "uninstall", "--settings", settings.toString());
        assertThat(uninstall.exit()).as(uninstall.stderr()).isZero();
        assertThat(Files.readString(settings)).isEqualTo(SETTINGS);
        assertThat(JobsJar.run(home(), new byte[0], "uninstall", "--settings", settings.toString()).stdout())
            .contains("nothing changed");
    }

    @Test
    void theInstalledCommandIsAWorkingHook() throws Exception {
        Path settings = tmp.resolve("new/settings.json");

        assertThat(JobsJar.run(home(), new byte[0], "install", "--settings", settings.toString()).exit()).isZero();

        Map<?, ?> hooks = (Map<?, ?>) ((Map<?, ?>) Json.parse(Files.readString(settings))).get("hooks");
        String command = (String) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) ((List<?>) hooks.get("PostToolUse")).get(0))
            .get("hooks")).get(0)).get("command");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", command);
        pb.environment().put("CODE_MEMORY_HOME", home().toString());
        Process real = pb.redirectErrorStream(true).start();
        real.getOutputStream().write(JobsJar.utf8(HookIntegrationTests.postToolUse("s-1", 1, "installed")));
        real.getOutputStream().close();
        assertThat(real.waitFor()).isZero();
        assertThat(new String(real.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(Files.readAllLines(home().resolve("spool/current.jsonl"))).hasSize(1);
        if (!System.getProperty("os.name").toLowerCase().contains("win")) {
            assertThat(Files.getPosixFilePermissions(settings))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        }
    }

    @Test
    void aSettingsFileThatIsNotJsonIsLeftAsItIs() throws Exception {
        Path settings = tmp.resolve("broken.json");
        String broken = "{\n  \"model\": \"opus\",\n}\n";
        Files.writeString(settings, broken);

        JobsJar.Result install = JobsJar.run(home(), new byte[0], "install", "--settings", settings.toString());

        assertThat(install.exit()).isEqualTo(1);
        assertThat(install.stderr()).contains(settings + " is left as it is: not valid JSON at line 3");
        assertThat(Files.readString(settings)).isEqualTo(broken);
        assertThat(backups(settings)).isEmpty();
    }

    @Test
    void serviceUnitNamesThisJarAndTheHome() throws Exception {
        Path userHome = Files.createDirectories(tmp.resolve("user"));
        List<String> command = new ArrayList<>(List.of(JobsJar.java(), "-Dos.name=Linux", "-jar",
                JobsJar.JAR.toString(), "install", "--settings", tmp.resolve("s.json").toString(), "--service"));

        JobsJar.Result install = JobsJar.run(home(), Map.of("HOME", userHome.toString()), new byte[0], command);

        assertThat(install.exit()).as(install.stderr()).isZero();
        Path unit = userHome.resolve(".config/systemd/user/code-memory.service");
        assertThat(install.stdout()).contains("wrote " + unit, "systemctl --user enable --now code-memory.service");
        assertThat(Files.readString(unit)).contains("ExecStart=" + JobsJar.java() + " -jar " + JobsJar.JAR + " serve",
                "Environment=CODE_MEMORY_HOME=" + home(), "WantedBy=default.target");
    }

    /**
     * A sandbox, a container or a test points {@code HOME} elsewhere: install, uninstall,
     * the hook's default home and import's default transcripts follow it, not Java's
     * {@code user.home} (the real user's home, from the password database).
     */
    @Test
    void everyDefaultPathFollowsHomeFromTheEnvironment() throws Exception {
        Path userHome = Files.createDirectories(tmp.resolve("sandbox-user"));
        Files.createDirectories(userHome.resolve(".claude/projects"));
        Map<String, String> env = Map.of("HOME", userHome.toString(), "CODE_MEMORY_HOME", "");
        Path settings = userHome.resolve(".claude/settings.json");

        JobsJar.Result install = JobsJar.run(home(), env, new byte[0], "install");

        assertThat(install.exit()).as(install.stderr()).isZero();
        assertThat(install.stdout()).contains(settings.toString());
        assertThat(Files.readString(settings)).contains(JobsJar.JAR.toString());

        JobsJar.Result hook = JobsJar.run(home(), env, JobsJar.utf8(HookIntegrationTests.postToolUse("s-1", 1, "x")),
                "hook");
        assertThat(hook.exit()).isZero();
        assertThat(Files.readAllLines(userHome.resolve(".code-memory/spool/current.jsonl"))).hasSize(1);
        assertThat(home()).doesNotExist();

        JobsJar.Result imported = JobsJar.run(home(), env, new byte[0], "import", "--transcripts");
        assertThat(imported.exit()).as(imported.stderr()).isZero();
        assertThat(imported.stdout()).contains("found 0 session file(s) and 0 subagent file(s) in "
                + userHome.resolve(".claude/projects") + ": 0 records");

        JobsJar.Result uninstall = JobsJar.run(home(), env, new byte[0], "uninstall");
        assertThat(uninstall.exit()).as(uninstall.stderr()).isZero();
        assertThat(Files.readString(settings)).doesNotContain(JobsJar.JAR.toString());
    }

    @Test
    void thePluginRegistersTheSameHookForTheSameEventsAndItsScriptRunsIt() throws Exception {
        Path plugin = Path.of("..", "plugin").toAbsolutePath().normalize();
        Map<?, ?> manifest = (Map<?, ?>) Json.parse(Files.readString(plugin.resolve(".claude-plugin/plugin.json")));
        Map<?, ?> hooks = (Map<?, ?>) ((Map<?, ?>) Json.parse(Files.readString(plugin.resolve("hooks/hooks.json"))))
            .get("hooks");

        assertThat(manifest.get("name")).isEqualTo("code-memory");
        assertThat(hooks.keySet().stream().map(String::valueOf).toList())
            .containsExactlyElementsOf(dev.codememory.jobs.install.ClaudeSettings.EVENTS.keySet());
        hooks.forEach((event, groups) -> assertThat(groups).as(String.valueOf(event))
            .isEqualTo(List.of(event.toString().startsWith("PostToolUse")
                    ? Map.of("matcher", "*", "hooks",
                            List.of(Map.of("type", "command", "command",
                                    "\"${CLAUDE_PLUGIN_ROOT}/bin/code-memory\" hook")))
                    : Map.of("hooks", List
                        .of(Map.of("type", "command", "command", "\"${CLAUDE_PLUGIN_ROOT}/bin/code-memory\" hook"))))));
        for (String command : List.of("memory-search", "memory-show", "memory-forget", "memory-status")) {
            assertThat(Files.readString(plugin.resolve("commands/" + command + ".md"))).as(command)
                .startsWith("---\ndescription: ")
                .contains("${CLAUDE_PLUGIN_ROOT}/bin/code-memory");
        }

        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "\"${CLAUDE_PLUGIN_ROOT}/bin/code-memory\" hook");
        pb.environment().put("CLAUDE_PLUGIN_ROOT", plugin.toString());
        pb.environment().put("CODE_MEMORY_JAR", JobsJar.JAR.toString());
        pb.environment().put("CODE_MEMORY_HOME", home().toString());
        Process hook = pb.start();
        hook.getOutputStream().write(JobsJar.utf8(HookIntegrationTests.postToolUse("s-9", 1, "through the plugin")));
        hook.getOutputStream().close();
        assertThat(hook.waitFor()).isZero();
        assertThat(new String(hook.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(Files.readString(home().resolve("spool/current.jsonl"))).contains("through the plugin");

        pb.environment().put("CODE_MEMORY_JAR", tmp.resolve("missing.jar").toString());
        Process missing = pb.start();
        missing.getOutputStream().close();
        assertThat(missing.waitFor()).as("a hook never fails Claude Code").isZero();
        assertThat(new String(missing.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
            .contains("no jobs.jar at");
    }

    private Path home() {
        return tmp.resolve("home");
    }

    private static List<Path> backups(Path settings) throws Exception {
        try (Stream<Path> files = Files.list(settings.getParent())) {
            return files
                .filter(p -> p.getFileName().toString().startsWith(settings.getFileName() + ".code-memory-backup-"))
                .toList();
        }
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder();
        Json.writeString(s, sb);
        return sb.toString();
    }

}
