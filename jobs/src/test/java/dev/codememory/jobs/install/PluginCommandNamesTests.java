package dev.codememory.jobs.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Claude Code names a plugin's commands after the plugin
 * ({@code /code-memory:memory-show}): a bare {@code /memory-show} typed by a user who
 * read it in our text reaches the model as plain words.
 */
class PluginCommandNamesTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** A command name not preceded by the plugin's namespace. */
    private static final Pattern BARE = Pattern.compile("(?<![\\w:-])/memory-(?:search|show|forget|status)\\b");

    @Test
    void theReadmeAndThePluginsCommandsNameTheCommandsAsClaudeCodeDoes() throws IOException {
        List<Path> texts = new ArrayList<>();
        texts.add(ROOT.resolve("README.md"));
        try (Stream<Path> commands = Files.list(ROOT.resolve("plugin/commands"))) {
            commands.filter(p -> p.toString().endsWith(".md")).sorted().forEach(texts::add);
        }
        List<String> bare = new ArrayList<>();
        for (Path text : texts) {
            Matcher m = BARE.matcher(Files.readString(text));
            while (m.find()) {
                bare.add(ROOT.relativize(text) + ": " + m.group());
            }
        }

        assertThat(texts).hasSize(5);
        assertThat(bare).isEmpty();
        assertThat(Files.readString(ROOT.resolve("README.md"))).contains("`/code-memory:memory-search`",
                "`/code-memory:memory-show`", "`/code-memory:memory-forget`", "`/code-memory:memory-status`");
    }

}
