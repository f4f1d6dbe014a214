package dev.codememory.jobs.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.json.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@SuppressWarnings("unchecked")
class McpServersTests {

    /** Someone's ~/.claude.json: Claude Code's own state and another MCP server. */
    private static final String CLAUDE_JSON = """
            {
              "numStartups": 12,
              "mcpServers": {
                "github": {
                  "type": "stdio",
                  "command": "npx",
                  "args": ["-y", "@modelcontextprotocol/server-github"]
                }
              },
              "projects": {"/work/app": {"allowedTools": []}}
            }
            """;

    private static final Map<String, Object> ENTRY = McpServers.entry(Path.of("/usr/bin/java"),
            Path.of("/opt/code memory/jobs.jar"), true, "/home/u/.code-memory");

    @Test
    void registersBesideOtherServersIsIdempotentAndUninstallGivesBackTheOriginal() {
        String installed = McpServers.install(CLAUDE_JSON, ENTRY);

        Map<String, Object> servers = (Map<String, Object>) ((Map<String, Object>) Json.parse(installed))
            .get("mcpServers");
        assertThat(servers.keySet()).containsExactly("github", "code-memory");
        Map<String, Object> ours = (Map<String, Object>) servers.get("code-memory");
        assertThat(ours.get("type")).isEqualTo("stdio");
        assertThat(ours.get("command")).isEqualTo("/usr/bin/java");
        assertThat((List<Object>) ours.get("args")).endsWith("-jar", "/opt/code memory/jobs.jar", "mcp");
        assertThat(ours.get("env")).isEqualTo(Map.of("CODE_MEMORY_HOME", "/home/u/.code-memory"));
        assertThat(installed).contains("\"numStartups\": 12", "\"projects\": {\"/work/app\": {\"allowedTools\": []}}");
        assertThat(McpServers.install(installed, ENTRY)).isEqualTo(installed);
        assertThat(McpServers.registered(installed)).isTrue();
        assertThat(McpServers.uninstall(installed)).isEqualTo(CLAUDE_JSON);
        assertThat(McpServers.uninstall(CLAUDE_JSON)).isEqualTo(CLAUDE_JSON);
    }

    @Test
    void aMovedJarIsUpdatedInPlaceNotDuplicated() {
        String installed = McpServers.install(CLAUDE_JSON, ENTRY);
        Map<String, Object> moved = McpServers.entry(Path.of("/usr/bin/java"), Path.of("/srv/jobs.jar"), true, null);

        String updated = McpServers.install(installed, moved);

        Map<String, Object> servers = (Map<String, Object>) ((Map<String, Object>) Json.parse(updated))
            .get("mcpServers");
        assertThat(servers.keySet()).containsExactly("github", "code-memory");
        assertThat(Json.parse(Json.write(servers.get("code-memory")))).isEqualTo(Json.parse(Json.write(moved)));
        assertThat(McpServers.uninstall(updated)).isEqualTo(CLAUDE_JSON);
    }

    @Test
    void aFileWithoutServersGetsOnlyOursAndLosesItAgain() {
        String desktop = "{\n  \"globalShortcut\": \"Ctrl+Space\"\n}\n";
        Map<String, Object> entry = McpServers.entry(Path.of("/usr/bin/java"), Path.of("/srv/jobs.jar"), false, null);

        String installed = McpServers.install(desktop, entry);

        Map<String, Object> ours = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) Json
            .parse(installed)).get("mcpServers")).get("code-memory");
        assertThat(ours).doesNotContainKeys("type", "env").containsKeys("command", "args");
        assertThat(McpServers.uninstall(installed)).isEqualTo(desktop);
        assertThat(McpServers.install("", entry)).contains("\"code-memory\"");
    }

    @Test
    void aFileThatIsNotAnObjectOrHasOddServersIsRefused() {
        assertThatThrownBy(() -> McpServers.install("[]", ENTRY)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpServers.install("{\"mcpServers\": []}", ENTRY))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> McpServers.install("{\"a\": ", ENTRY)).isInstanceOf(IllegalArgumentException.class);
    }

}
