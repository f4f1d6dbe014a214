package dev.codememory.config.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserHomeTests {

    @Test
    void homeFromTheEnvironmentWinsOverUserHome() {
        assertThat(UserHome.directory(Map.of("HOME", "/sandbox/home"), "/root")).isEqualTo(Path.of("/sandbox/home"));
    }

    @Test
    void aMissingOrBlankHomeFallsBackToUserHome() {
        assertThat(UserHome.directory(Map.of(), "/root")).isEqualTo(Path.of("/root"));
        assertThat(UserHome.directory(Map.of("HOME", " "), "/root")).isEqualTo(Path.of("/root"));
    }

    @Test
    void expandsATildeAtTheStartOnly() {
        Path home = Path.of("/sandbox/home");

        assertThat(UserHome.expand("~", home)).isEqualTo(home);
        assertThat(UserHome.expand("~/.claude/projects", home)).isEqualTo(Path.of("/sandbox/home/.claude/projects"));
        assertThat(UserHome.expand("/abs/~/x", home)).isEqualTo(Path.of("/abs/~/x"));
        assertThat(UserHome.expand("~other/x", home)).isEqualTo(Path.of("~other/x"));
    }

}
