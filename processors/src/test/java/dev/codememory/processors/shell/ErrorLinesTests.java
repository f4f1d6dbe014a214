package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ErrorLinesTests {

    @Test
    void leavesClaudeCodesErrorPrefixOutOfTheFirstLine() {
        String output = "Error: fatal: not a git repository (or any of the parent directories): .git";

        assertThat(ErrorLines.firstMeaningful(output))
            .isEqualTo("fatal: not a git repository (or any of the parent directories): .git");
    }

    @Test
    void skipsABarePrefixLine() {
        String output = "Error: \nsrc/A.java:3: error: ';' expected\n    int x\n         ^";

        assertThat(ErrorLines.firstMeaningful(output)).isEqualTo("src/A.java:3: error: ';' expected");
    }

    @Test
    void prefersTheFirstLineWithAFailureCue() {
        String output = "Error: Exit code 1\nCompiling 3 files (.ex)\n\n"
                + "** (CompileError) lib/a.ex:4: undefined function foo/0\n** (exit) 1";

        assertThat(ErrorLines.firstMeaningful(output))
            .isEqualTo("** (CompileError) lib/a.ex:4: undefined function foo/0");
        assertThat(ErrorLines.firstMeaningful("Error: Command timed out after 2m 0.0s\nStarting server"))
            .isEqualTo("Command timed out after 2m 0.0s");
        assertThat(ErrorLines.firstMeaningful("Error: zsh: permission denied: ./run.sh"))
            .isEqualTo("zsh: permission denied: ./run.sh");
    }

    @Test
    void skipsPunctuationBoxDrawingAndBareErrorLines() {
        String output = "Error: Error\n    │\n  ──────\n   ~~~^^^\nERROR\nerror:\n  Something odd happened here\n";

        assertThat(ErrorLines.firstMeaningful(output)).isEqualTo("Something odd happened here");
    }

    @Test
    void fallsBackToTheFirstNonBlankLine() {
        String output = "Error: \n\nOn branch main\nnothing added to commit but untracked files present";

        assertThat(ErrorLines.firstMeaningful(output)).isEqualTo("On branch main");
    }

    @Test
    void readsStderrOfJsonBeforeStdout() {
        String output = "{\"stdout\":\"running 3 tests\\ntest a ... FAILED\",\"stderr\":\"warning: unused import\\n"
                + "error[E0425]: cannot find value `x`\",\"interrupted\":false,\"isImage\":false}";

        assertThat(ErrorLines.firstMeaningful(output)).isEqualTo("error[E0425]: cannot find value `x`");
    }

    @Test
    void readsStdoutOfJsonWhenStderrIsEmptyAndQuotesEscapesAsWritten() {
        String quiet = "{\"stdout\":\"Compiling\\n\\n3 tests, 1 failure\\n\",\"stderr\":\"\"}";
        String escaped = "{\"stdout\":\"\",\"stderr\":\"boom: \\\"quoted\\\" thing\\\\n broke\"}";

        assertThat(ErrorLines.firstMeaningful(quiet)).isEqualTo("3 tests, 1 failure");
        assertThat(ErrorLines.firstMeaningful(escaped)).isEqualTo("boom: \\\"quoted\\\" thing\\\\n broke");
        assertThat(ErrorLines.firstMeaningful("{\"stdout\":\"\",\"stderr\":\"\"}")).isNull();
    }

    @Test
    void cutsALongLineAtItsLastSpaceWithinTheLimit() {
        String output = "Error: " + "word ".repeat(60) + "failed";

        String line = ErrorLines.firstMeaningful(output);

        assertThat(line).isEqualTo("word ".repeat(40).strip()).hasSize(199);
        assertThat(output).contains(line);
    }

    @Test
    void cutsALongWordHardButNeverInsideASurrogatePair() {
        String split = "x".repeat(199) + "😀" + "y".repeat(50);
        String whole = "x".repeat(198) + "😀" + "y".repeat(50);

        assertThat(ErrorLines.firstMeaningful(split)).isEqualTo("x".repeat(199));
        assertThat(ErrorLines.firstMeaningful(whole)).isEqualTo("x".repeat(198) + "😀");
    }

    @Test
    void blankOrMissingOutputHasNoLine() {
        assertThat(ErrorLines.firstMeaningful(null)).isNull();
        assertThat(ErrorLines.firstMeaningful("")).isNull();
        assertThat(ErrorLines.firstMeaningful("Error: Error")).isNull();
        assertThat(ErrorLines.firstMeaningful("   \n │ \n")).isNull();
    }

    @Test
    void returnsAnExactBoundedSubstringOfAnyOutput() {
        String[] atoms = { "Error: ", "error", "\n", "\\n", "\\", "\"", "{", "\"stdout\":\"", "\"stderr\": \"", " ",
                "word", "│", "😀", "\uD83D", "fatal", "x".repeat(120), "[main 1a2b3c4] ", " create mode 100644 ",
                "\\303" };
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int k = random.nextInt(30); k > 0; k--) {
                sb.append(atoms[random.nextInt(atoms.length)]);
            }
            String output = sb.toString();
            String line = ErrorLines.firstMeaningful(output);
            if (line != null) {
                assertThat(output).contains(line);
                assertThat(line).isNotBlank().hasSizeLessThanOrEqualTo(ErrorLines.MAX_LINE);
            }
            assertThat(GitOutput.createdFiles(output)).doesNotContainNull();
            ErrorLines.refusal(output);
            GitOutput.committedSha(output);
        }
    }

    @Test
    void recognisesRefusalsAndInterruptions() {
        assertThat(ErrorLines.refusal("The user doesn't want to proceed with this tool use. Wait here.")).isTrue();
        assertThat(ErrorLines.refusal("Error: The user doesn't want to take this action right now. Wait.")).isTrue();
        assertThat(ErrorLines.refusal("Error: [Request interrupted by user for tool use]\nStarting server")).isTrue();
        assertThat(ErrorLines.refusal("  [Request interrupted by user]")).isTrue();
        assertThat(ErrorLines.refusal("Permission to use Bash with command rm -rf build has been denied.")).isTrue();
        assertThat(ErrorLines.refusal("The user doesn\u2019t want to proceed with this tool use.")).isTrue();
    }

    @Test
    void failuresOfTheCommandAreNoRefusal() {
        assertThat(ErrorLines.refusal("Error: Command timed out after 2m 0.0s")).isFalse();
        assertThat(ErrorLines.refusal("Error: zsh: permission denied: ./run.sh")).isFalse();
        assertThat(ErrorLines.refusal("Permission to use Bash\nhas been denied")).isFalse();
        assertThat(ErrorLines.refusal("{\"stdout\":\"The user doesn't want to proceed with this tool use\"}"))
            .isFalse();
        assertThat(ErrorLines.refusal("echo The user doesn't want to proceed with this tool use")).isFalse();
        assertThat(ErrorLines.refusal(null)).isFalse();
    }

}
