package dev.codememory.config.project;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectResolverTests {

    @TempDir
    Path tmp;

    private final ProjectResolver resolver = new ProjectResolver();

    @Test
    void cwdInsideRepositoryResolvesToRepositoryRoot() throws IOException {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Path nested = Files.createDirectories(repo.resolve("src/main/java"));

        assertThat(resolver.projectOf(nested.toString())).isEqualTo(repo.toString());
        assertThat(resolver.projectOf(repo.toString())).isEqualTo(repo.toString());
    }

    @Test
    void gitFileOfWorktreeMarksTheRoot() throws IOException {
        Path worktree = Files.createDirectories(tmp.resolve("worktree"));
        Files.writeString(worktree.resolve(".git"), "gitdir: /somewhere/.git/worktrees/worktree\n");
        Path nested = Files.createDirectories(worktree.resolve("module"));

        assertThat(resolver.projectOf(nested.toString())).isEqualTo(worktree.toString());
    }

    @Test
    void innermostRepositoryWins() throws IOException {
        Path outer = tmp.resolve("outer");
        Files.createDirectories(outer.resolve(".git"));
        Path submodule = Files.createDirectories(outer.resolve("libs/sub"));
        Files.writeString(submodule.resolve(".git"), "gitdir: ../../.git/modules/sub\n");

        assertThat(resolver.projectOf(submodule.resolve(".").toString())).isEqualTo(submodule.toString());
        assertThat(resolver.projectOf(outer.resolve("libs").toString())).isEqualTo(outer.toString());
    }

    @Test
    void cwdOutsideAnyRepositoryResolvesToItselfNormalized() throws IOException {
        Path plain = Files.createDirectories(tmp.resolve("plain/dir"));

        assertThat(resolver.projectOf(plain + "/../dir/./")).isEqualTo(plain.toString());
    }

    @Test
    void cwdThatDoesNotExistResolvesToNormalizedCwd() {
        assertThat(resolver.projectOf("/no/such/../place")).isEqualTo("/no/place");
        assertThat(resolver.projectOf("/no/such/place/")).isEqualTo("/no/such/place");
    }

    @Test
    void missingDirectoryInsideRepositoryStillResolvesToRepositoryRoot() throws IOException {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));

        assertThat(resolver.projectOf(repo.resolve("deleted/later").toString())).isEqualTo(repo.toString());
    }

    @Test
    void nullOrBlankCwdIsUnknown() {
        assertThat(resolver.projectOf(null)).isEqualTo(ProjectResolver.UNKNOWN).isEqualTo("(unknown)");
        assertThat(resolver.projectOf("")).isEqualTo("(unknown)");
        assertThat(resolver.projectOf("  \t")).isEqualTo("(unknown)");
    }

    @Test
    void relativePathIsReturnedNormalizedWithoutLookingAtDisk() {
        assertThat(resolver.projectOf("a/b/../c")).isEqualTo("a/c");
        assertThat(resolver.projectOf("./x/")).isEqualTo("x");
        assertThat(resolver.projectOf("project")).isEqualTo("project");
    }

    @Test
    void invalidPathIsReturnedAsGiven() {
        assertThat(resolver.projectOf("/bad\u0000path")).isEqualTo("/bad\u0000path");
    }

    @Test
    void resultIsCachedForTheLifeOfTheResolver() throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("later-repo"));
        Path nested = Files.createDirectories(repo.resolve("src"));
        assertThat(resolver.projectOf(nested.toString())).isEqualTo(nested.toString());

        Files.createDirectories(repo.resolve(".git"));

        assertThat(resolver.projectOf(nested.toString())).isEqualTo(nested.toString());
        assertThat(new ProjectResolver().projectOf(nested.toString())).isEqualTo(repo.toString());
    }

}
