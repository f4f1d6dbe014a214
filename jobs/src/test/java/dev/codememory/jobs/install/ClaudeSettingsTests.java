package dev.codememory.jobs.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Our hook entries go into a settings file and come out again without touching a byte of
 * anything else.
 */
class ClaudeSettingsTests {

    private static final String COMMAND = "java -XX:SharedArchiveFile=/opt/code-memory/jobs/target/hook.jsa "
            + "-Xlog:disable -jar /opt/code-memory/jobs/target/jobs.jar hook";

    /**
     * A settings file as people have them: other keys, other hooks (one event we use
     * too), 4-space indentation.
     */
    static final String SETTINGS = """
            {
                "model": "opus",
                "permissions": {
                    "allow": ["Bash(git status)", "Read(~/.zshrc)"],
                    "deny": []
                },
                "env": {"MY_FLAG": "1"},
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [{"type": "command", "command": "~/bin/check-bash.sh", "timeout": 5}]
                        }
                    ],
                    "Stop": [
                        {
                            "hooks": [
                                {
                                    "type": "command",
                                    "command": "notify-send \\"Claude is done\\""
                                }
                            ]
                        }
                    ]
                },
                "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"}
            }
            """;

    @Test
    void installAddsOurEntryForEveryEventAndKeepsEverythingElse() {
        String installed = ClaudeSettings.install(SETTINGS, COMMAND);

        Map<?, ?> json = (Map<?, ?>) Json.parse(installed);
        Map<?, ?> hooks = (Map<?, ?>) json.get("hooks");
        assertThat(hooks.keySet().stream().map(String::valueOf).toList()).containsExactly("PreToolUse", "Stop",
                "SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "SubagentStop", "PreCompact",
                "SessionEnd", "TaskCreated", "TaskCompleted");
        for (String event : ClaudeSettings.EVENTS.keySet()) {
            List<?> groups = (List<?>) hooks.get(event);
            Map<?, ?> ours = (Map<?, ?>) groups.get(groups.size() - 1);
            assertThat(ours.get("hooks")).as(event).isEqualTo(List.of(Map.of("type", "command", "command", COMMAND)));
            assertThat(ours.get("matcher")).as(event).isEqualTo(event.startsWith("PostToolUse") ? "*" : null);
        }
        assertThat(((List<?>) hooks.get("Stop"))).hasSize(2);
        // the rest of the file, byte for byte: everything before the first insertion and
        // after the last one
        String stopGroupEnd = "            }\n        ]\n    },";
        assertThat(SETTINGS).contains(stopGroupEnd);
        assertThat(installed)
            .startsWith(SETTINGS.substring(0, SETTINGS.indexOf(stopGroupEnd) + "            }".length()))
            .endsWith(SETTINGS.substring(SETTINGS.indexOf("\n    },\n    \"statusLine\"")));
        // laid out like the file: four spaces per level
        assertThat(installed).contains("\n        \"SessionStart\": [\n            {\n                \"hooks\": [\n"
                + "                    {\n                        \"type\": \"command\",\n");
    }

    @Test
    void installingTwiceChangesNothingAndUninstallGivesBackTheOriginalBytes() {
        String once = ClaudeSettings.install(SETTINGS, COMMAND);

        assertThat(ClaudeSettings.install(once, COMMAND)).isEqualTo(once);
        assertThat(ClaudeSettings.installed(once, COMMAND)).isTrue();
        assertThat(ClaudeSettings.uninstall(once)).isEqualTo(SETTINGS);
        assertThat(ClaudeSettings.uninstall(SETTINGS)).isEqualTo(SETTINGS);
    }

    @Test
    void roundTripsFilesWithoutHooksCompactFilesAndNoFileAtAll() {
        for (String original : List.of("{\n  \"model\": \"sonnet\"\n}\n", "{\"model\":\"sonnet\",\"env\":{}}",
                "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": []\n      }\n    ]\n  }\n}", "{}")) {
            String installed = ClaudeSettings.install(original, COMMAND);

            assertThat(Json.parse(installed)).as(original).isInstanceOf(Map.class);
            assertThat(ClaudeSettings.install(installed, COMMAND)).as(original).isEqualTo(installed);
            assertThat(ClaudeSettings.uninstall(installed)).as(original).isEqualTo(original);
        }
        String created = ClaudeSettings.install("", COMMAND);
        assertThat(created).startsWith("{\n  \"hooks\": {\n    \"SessionStart\": [\n").endsWith("  }\n}\n");
        assertThat(ClaudeSettings.uninstall(created)).isEqualTo("{}\n");
    }

    @Test
    void anEntryOfAMovedCloneIsPointedHereInsteadOfDuplicated() {
        String old = ClaudeSettings.install(SETTINGS, "java -jar /old/place/jobs/target/jobs.jar hook");

        String moved = ClaudeSettings.install(old, COMMAND);

        assertThat(moved).doesNotContain("/old/place").isEqualTo(ClaudeSettings.install(SETTINGS, COMMAND));
    }

    @Test
    void uninstallTakesOnlyOurHandlerOutOfAGroupSharedWithAnotherOne() {
        String shared = """
                {
                  "hooks": {
                    "Stop": [
                      {
                        "hooks": [
                          {"type": "command", "command": "say done"},
                          {"type": "command", "command": "java -jar '/my clone/jobs/target/jobs.jar' hook"}
                        ]
                      }
                    ]
                  }
                }
                """;

        String ours = ",\n          {\"type\": \"command\", \"command\": \"java -jar '/my clone/jobs/target/jobs.jar'"
                + " hook\"}";
        assertThat(shared).contains(ours);

        assertThat(ClaudeSettings.uninstall(shared)).isEqualTo(shared.replace(ours, ""));
    }

    @Test
    void refusesWhatIsNotASettingsObjectAndSaysWhere() {
        assertThatThrownBy(() -> ClaudeSettings.install("{\n  \"hooks\": {,}\n}", COMMAND))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("line 2, column 13");
        assertThatThrownBy(() -> ClaudeSettings.install("[1]", COMMAND)).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> ClaudeSettings.install("{\"hooks\": []}", COMMAND))
            .hasMessageContaining("\"hooks\" in the settings file is not an object");
        assertThatThrownBy(() -> ClaudeSettings.install("{\"a\": 1,}", COMMAND)).hasMessageContaining("not valid JSON");
    }

    @Test
    void recognisesOurCommandWhereverTheJarIs() {
        assertThat(ClaudeSettings.isOurs("java -jar /x/jobs.jar hook")).isTrue();
        assertThat(ClaudeSettings.isOurs("java -Xms8m -jar '/a b/jobs.jar' hook")).isTrue();
        assertThat(ClaudeSettings.isOurs("java -jar /x/jobs.jar serve")).isFalse();
        assertThat(ClaudeSettings.isOurs("~/bin/hook")).isFalse();
        assertThat(InstallCommand.shellQuote("/a b/it's")).isEqualTo("'/a b/it'\\''s'");
        assertThat(InstallCommand.shellQuote("/opt/code-memory/jobs.jar")).isEqualTo("/opt/code-memory/jobs.jar");
    }

}
