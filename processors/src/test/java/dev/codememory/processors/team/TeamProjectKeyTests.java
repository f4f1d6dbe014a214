package dev.codememory.processors.team;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeamProjectKeyTests {

    @TempDir
    Path tmp;

    @Test
    void clonesOfOneRepositoryShareAKeyWhateverTheirUrlForm() {
        assertThat(TeamProjectKey.normalize("git@github.com:acme/shop.git")).isEqualTo("github.com/acme/shop");
        assertThat(TeamProjectKey.normalize("https://alice:s3cret@GitHub.com/acme/shop"))
            .isEqualTo("github.com/acme/shop");
        assertThat(TeamProjectKey.normalize("ssh://git@github.com:22/acme/shop.git/"))
            .isEqualTo("github.com/acme/shop");
    }

    @Test
    void readsTheOriginOfTheCloneAndFallsBackToThePath() throws Exception {
        Path clone = tmp.resolve("shop");
        Files.createDirectories(clone.resolve(".git"));
        Files.writeString(clone.resolve(".git/config"), """
                [core]
                \tbare = false
                [remote "upstream"]
                \turl = git@github.com:other/shop.git
                [remote "origin"]
                \turl = https://github.com/acme/shop.git
                \tfetch = +refs/heads/*:refs/remotes/origin/*
                """);
        Path plain = tmp.resolve("plain");
        Files.createDirectories(plain);

        assertThat(TeamProjectKey.of(clone.toString())).isEqualTo("github.com/acme/shop");
        assertThat(TeamProjectKey.of(plain.toString())).isEqualTo(plain.toString());
    }

}
