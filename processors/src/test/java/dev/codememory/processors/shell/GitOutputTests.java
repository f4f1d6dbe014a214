package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GitOutputTests {

    @Test
    void readsShaAndCreatedFilesFromRawOutput() {
        String output = "[main 1a2b3c4] Add reader\n 2 files changed, 30 insertions(+)\n create mode 100644"
                + " src/Reader.java\n create mode 100755 bin/run\n delete mode 100644 old.txt";

        assertThat(GitOutput.committedSha(output)).isEqualTo("1a2b3c4");
        assertThat(GitOutput.createdFiles(output)).containsExactly("src/Reader.java", "bin/run");
    }

    @Test
    void readsShaAndCreatedFilesFromCompactJsonOfABashResponse() {
        String output = "{\"stdout\":\"[feature/spool-fix 9f8e7d6] Fix \\\"spool\\\" reader\\n 2 files changed\\n"
                + " create mode 100644 docs/notes.md\\n"
                + " create mode 100644 \\\"docs/\\\\303\\\\251t\\\\303\\\\251.md\\\"\","
                + "\"stderr\":\"\",\"interrupted\":false,\"isImage\":false}";

        assertThat(GitOutput.committedSha(output)).isEqualTo("9f8e7d6");
        assertThat(GitOutput.createdFiles(output)).containsExactly("docs/notes.md", "docs/été.md");
    }

    @Test
    void readsRootCommitAndDetachedHead() {
        assertThat(GitOutput.committedSha("[trunk (root-commit) 3c0ffee] Initial import\n")).isEqualTo("3c0ffee");
        assertThat(GitOutput.committedSha("[detached HEAD 0a1b2c3d] Try a fix")).isEqualTo("0a1b2c3d");
        assertThat(GitOutput.committedSha("{\"stdout\": \"[release/1.x 89abcde] Bump\"}")).isEqualTo("89abcde");
    }

    @Test
    void readsShaWhenALaterCommandOfTheLineFailed() {
        String output = "Error: [main 4d5e6f7] Add x\n 1 file changed\nTo github.com:o/r.git\n ! [rejected]"
                + " main -> main (fetch first)";

        assertThat(GitOutput.committedSha(output)).isEqualTo("4d5e6f7");
    }

    @Test
    void failedCommitHasNoSha() {
        assertThat(GitOutput.committedSha("Error: On branch master\nYour branch is up to date with 'origin/master'."
                + "\n\nnothing to commit, working tree clean"))
            .isNull();
        assertThat(GitOutput.committedSha("Error: husky - pre-commit hook exited with code 1 (error)")).isNull();
        assertThat(GitOutput.committedSha("Error: fatal: Unable to create '/r/.git/index.lock': File exists."))
            .isNull();
        assertThat(GitOutput.committedSha("{\"stdout\":\"\",\"stderr\":\"fatal: not a git repository\"}")).isNull();
    }

    @Test
    void ignoresBracketsThatAreNoSummaryLine() {
        assertThat(GitOutput.committedSha("see [main 1a2b3c4] earlier")).isNull();
        assertThat(GitOutput.committedSha("[main abcdefg] not hex")).isNull();
        assertThat(GitOutput.committedSha("[main 1a2b3c] too short")).isNull();
    }

    @Test
    void nullOutputHasNothing() {
        assertThat(GitOutput.committedSha(null)).isNull();
        assertThat(GitOutput.createdFiles(null)).isEmpty();
        assertThat(GitOutput.createdFiles("[main 1a2b3c4] x\n 1 file changed")).isEmpty();
    }

    @Test
    void unquotesGitQuotedPaths() {
        assertThat(GitOutput.unquote("\"a\\tb \\\"c\\\\d\\\"\"")).isEqualTo("a\tb \"c\\d\"");
        assertThat(GitOutput.unquote("plain path.txt")).isEqualTo("plain path.txt");
        assertThat(GitOutput.unquote("\"")).isEqualTo("\"");
        assertThat(GitOutput.unquote("\"bad \\0x\"")).isEqualTo("bad 0x");
    }

}
