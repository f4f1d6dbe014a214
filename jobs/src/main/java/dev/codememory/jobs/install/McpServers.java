package dev.codememory.jobs.install;

import dev.codememory.config.home.UserHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.mcp.McpCommand;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * code-memory's MCP server in a client's configuration: {@code mcpServers."code-memory"}
 * in Claude Code's {@code ~/.claude.json} (a user-scope server, whose tools Claude Code
 * names {@code mcp__code-memory__…}) or in Claude Desktop's
 * {@code claude_desktop_config.json}. Added, updated and removed as edits of the text, as
 * {@link ClaudeSettings} does with hooks: every byte outside our entry stays as it was,
 * so adding and then removing gives back the original file (unless it held an empty
 * {@code mcpServers} object, which goes with our entry).
 */
public final class McpServers {

    /** The server's name in the client's configuration. */
    public static final String NAME = "code-memory";

    private static final String KEY = "mcpServers";

    private McpServers() {
    }

    /** Claude Code's user configuration file. */
    public static Path claudeCodeConfig() {
        return UserHome.directory().resolve(".claude.json");
    }

    /** Claude Desktop's configuration file on this system (Linux and macOS). */
    public static Path desktopConfig() {
        Path home = UserHome.directory();
        boolean mac = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("mac");
        Path dir = mac ? home.resolve("Library").resolve("Application Support").resolve("Claude")
                : home.resolve(".config").resolve("Claude");
        return dir.resolve("claude_desktop_config.json");
    }

    /**
     * The entry that starts {@code jar}'s MCP server: {@code type: stdio} for Claude Code
     * ({@code stdio}), none for Claude Desktop; {@code CODE_MEMORY_HOME} passed on when
     * the installing process has one.
     */
    public static Map<String, Object> entry(Path java, Path jar, boolean stdio, String codeMemoryHome) {
        Map<String, Object> entry = new LinkedHashMap<>();
        if (stdio) {
            entry.put("type", "stdio");
        }
        entry.put("command", java.toString());
        entry.put("args", McpCommand.serverArguments(jar));
        if (codeMemoryHome != null && !codeMemoryHome.isBlank()) {
            entry.put("env", Map.of("CODE_MEMORY_HOME", codeMemoryHome));
        }
        return entry;
    }

    /**
     * The file with our server registered as {@code entry}; unchanged when it already is.
     */
    public static String install(String text, Map<String, Object> entry) {
        String current = text.isBlank() ? "{}\n" : text;
        if (!(JsonText.parse(current) instanceof JsonText.ObjectNode root)) {
            throw new IllegalArgumentException("the file is not a JSON object");
        }
        ClaudeSettings.Style style = ClaudeSettings.Style.of(current, root);
        JsonText.Member servers = root.member(KEY);
        if (servers == null) {
            return ClaudeSettings.insertMember(current, root, 0, KEY, Map.of(NAME, entry), style);
        }
        if (!(servers.value() instanceof JsonText.ObjectNode serversObject)) {
            throw new IllegalArgumentException("\"" + KEY + "\" is not an object");
        }
        JsonText.Member ours = serversObject.member(NAME);
        if (ours == null) {
            return ClaudeSettings.insertMember(current, serversObject, 1, NAME, entry, style);
        }
        String existing = current.substring(ours.value().start(), ours.value().end());
        if (Objects.equals(Json.parse(existing), Json.parse(Json.write(entry)))) {
            return current;
        }
        return current.substring(0, ours.value().start()) + ClaudeSettings.render(entry, 2, style)
                + current.substring(ours.value().end());
    }

    /**
     * The file without our server; {@code mcpServers} goes too when nothing is left in
     * it.
     */
    public static String uninstall(String text) {
        if (text.isBlank() || !(JsonText.parse(text) instanceof JsonText.ObjectNode root)) {
            return text;
        }
        JsonText.Member servers = root.member(KEY);
        if (servers == null || !(servers.value() instanceof JsonText.ObjectNode serversObject)) {
            return text;
        }
        JsonText.Member ours = serversObject.member(NAME);
        if (ours == null) {
            return text;
        }
        if (serversObject.members().size() > 1) {
            return ClaudeSettings.removeAt(text, serversObject.start(), serversObject.end(),
                    ClaudeSettings.memberSpans(serversObject), serversObject.members().indexOf(ours));
        }
        return ClaudeSettings.removeAt(text, root.start(), root.end(), ClaudeSettings.memberSpans(root),
                root.members().indexOf(servers));
    }

    /** Whether the file registers our server. */
    public static boolean registered(String text) {
        if (text.isBlank() || !(JsonText.parse(text) instanceof JsonText.ObjectNode root)) {
            return false;
        }
        JsonText.Member servers = root.member(KEY);
        return servers != null && servers.value() instanceof JsonText.ObjectNode o && o.member(NAME) != null;
    }

    /** The arguments of an entry (for messages). */
    static String commandLine(Map<String, Object> entry) {
        StringBuilder s = new StringBuilder(String.valueOf(entry.get("command")));
        if (entry.get("args") instanceof List<?> args) {
            args.forEach(a -> s.append(' ').append(InstallCommand.shellQuote(String.valueOf(a))));
        }
        return s.toString();
    }

}
