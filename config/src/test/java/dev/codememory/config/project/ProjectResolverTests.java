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
    void worktreeWhoseRepositoryIsGoneIsAProjectOfItsOwn() throws IOException {
        Path worktree = Files.createDirectories(tmp.resolve("worktree"));
        Files.writeString(worktree.resolve(".git"), "gitdir: /somewhere/.git/worktrees/worktree\n");
        Path nested = Files.createDirectories(worktree.resolve("module"));

        assertThat(resolver.projectOf(nested.toString())).isEqualTo(worktree.toString());
        assertThat(resolver.worktreeOf(nested.toString())).isEqualTo(worktree.toString());
    }

    @Test
    void everyWorktreeOfARepositoryIsItsMainCheckout() throws Exception {
        Path main = tmp.resolve("shop");
        git(tmp, "init", "-q", "-b", "main", main.toString());
        git(main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
        Path feature = tmp.resolve("shop-worktrees/feature");
        git(main, "worktree", "add", "-q", "-b", "feature", feature.toString());
        Path nested = Files.createDirectories(feature.resolve("src/app"));

        assertThat(resolver.projectOf(nested.toString())).isEqualTo(main.toString());
        assertThat(resolver.projectOf(feature.toString())).isEqualTo(main.toString());
        assertThat(resolver.worktreeOf(nested.toString())).isEqualTo(feature.toString());
        assertThat(resolver.worktreeOf(main.resolve("x").toString())).isEqualTo(main.toString());
        assertThat(ProjectResolver.relative(feature.resolve("src/app/Main.java").toString(), main.toString()))
            .isEqualTo("src/app/Main.java");
        assertThat(ProjectResolver.relative(main.resolve("README.md").toString(), main.toString()))
            .isEqualTo("README.md");
        assertThat(ProjectResolver.relative(tmp.resolve("elsewhere/a.txt").toString(), main.toString()))
            .isEqualTo(tmp.resolve("elsewhere/a.txt").toString());
    }

    @Test
    void worktreesOfABareRepositoryAreTheFolderThatHoldsIt() throws Exception {
        Path origin = tmp.resolve("origin");
        git(tmp, "init", "-q", "-b", "main", origin.toString());
        git(origin, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first");
        Path container = Files.createDirectories(tmp.resolve("api"));
        git(container, "clone", "-q", "--bare", origin.toString(), ".bare");
        Files.writeString(container.resolve(".git"), "gitdir: ./.bare\n");
        git(container, "worktree", "add", "-q", container.resolve("main").toString(), "main");
        Path plainBare = tmp.resolve("plain.git");
        git(tmp, "clone", "-q", "--bare", origin.toString(), plainBare.toString());
        git(plainBare, "worktree", "add", "-q", tmp.resolve("plain-main").toString(), "main");

        assertThat(resolver.projectOf(container.resolve("main").toString())).isEqualTo(container.toString());
        assertThat(resolver.projectOf(container.toString())).isEqualTo(container.toString());
        assertThat(resolver.projectOf(tmp.resolve("plain-main").toString())).isEqualTo(plainBare.toString());
    }

    @Test
    void worktreeLaidOutWithoutCommondirStillFindsItsRepository() throws IOException {
        Path main = tmp.resolve("athena");
        Files.createDirectories(main.resolve(".git/worktrees/fix"));
        Path worktree = Files.createDirectories(tmp.resolve("athena-worktrees/fix"));
        Files.writeString(worktree.resolve(".git"), "gitdir: " + main.resolve(".git/worktrees/fix") + "\n");

        assertThat(resolver.projectOf(worktree.resolve("docs").toString())).isEqualTo(main.toString());
        assertThat(ProjectResolver.relative(worktree.resolve("docs/x.md").toString(), main.toString()))
            .isEqualTo("docs/x.md");
    }

    @Test
    void submoduleStaysAProjectOfItsOwn() throws IOException {
        Path outer = tmp.resolve("outer");
        Files.createDirectories(outer.resolve(".git/modules/sub"));
        Path submodule = Files.createDirectories(outer.resolve("libs/sub"));
        Files.writeString(submodule.resolve(".git"), "gitdir: ../../.git/modules/sub\n");

        assertThat(resolver.projectOf(submodule.toString())).isEqualTo(submodule.toString());
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of("git"));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
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
