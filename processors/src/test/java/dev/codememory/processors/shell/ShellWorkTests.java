package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.codememory.processors.shell.RecordedWork.Kind;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ShellWorkTests {

    private static final String CLAUDE_TRAILER = """

            🤖 Generated with [Claude Code](https://claude.ai/code)

            Co-Authored-By: Claude <noreply@anthropic.com>""";

    /**
     * The only record of {@code command}, after checking its span quotes
     * {@code rawSubject}.
     */
    private static RecordedWork only(String command, String rawSubject) {
        List<RecordedWork> works = ShellWork.parse(command);
        assertThat(works).hasSize(1);
        RecordedWork w = works.get(0);
        assertThat(command.substring(w.subjectStart(), w.subjectEnd())).isEqualTo(rawSubject);
        return w;
    }

    private static void assertCommit(RecordedWork w, String subject, String body, String... paths) {
        assertThat(w.kind()).isEqualTo(Kind.COMMIT);
        assertThat(w.subject()).isEqualTo(subject);
        assertThat(w.body()).isEqualTo(body);
        assertThat(w.paths()).containsExactly(paths);
    }

    // ---- message forms ----

    @Test
    void readsDoubleQuotedMessage() {
        String command = "git commit -m \"Fix the flaky spool test\"";

        RecordedWork w = only(command, "Fix the flaky spool test");

        assertCommit(w, "Fix the flaky spool test", "");
        assertThat(w.subjectStart()).isEqualTo(15);
        assertThat(w.subjectEnd()).isEqualTo(39);
    }

    @Test
    void readsSingleQuotedMessage() {
        assertCommit(only("git commit -m 'Keep \"quotes\" literal'", "Keep \"quotes\" literal"),
                "Keep \"quotes\" literal", "");
    }

    @Test
    void readsOneWordMessage() {
        assertCommit(only("git commit -m WIP", "WIP"), "WIP", "");
    }

    @Test
    void readsMessageStuckToTheFlag() {
        assertCommit(only("git commit -m\"Stuck to the flag\"", "Stuck to the flag"), "Stuck to the flag", "");
    }

    @Test
    void readsLongMessageOptionWithEqualsOrSeparateValue() {
        assertCommit(only("git commit --message=\"Long form with equals\"", "Long form with equals"),
                "Long form with equals", "");
        assertCommit(only("git commit --message 'Long form apart'", "Long form apart"), "Long form apart", "");
    }

    @Test
    void readsMessageInsideAFlagCluster() {
        assertCommit(only("git commit -am \"Commit all tracked\"", "Commit all tracked"), "Commit all tracked", "");
        assertCommit(only("git commit -a -m \"Separate flags\"", "Separate flags"), "Separate flags", "");
        assertCommit(only("git commit -qam'Quiet cluster'", "Quiet cluster"), "Quiet cluster", "");
    }

    @Test
    void joinsSeveralMessagesAsParagraphs() {
        String command = "git commit -m \"Split the reader\" -m \"It was doing two jobs.\" -m 'Now each is tested.'";

        assertCommit(only(command, "Split the reader"), "Split the reader",
                "It was doing two jobs.\n\nNow each is tested.");
    }

    @Test
    void readsAmendAndGitGlobalOptions() {
        assertCommit(only("git commit --amend -m \"Reworded subject\"", "Reworded subject"), "Reworded subject", "");
        assertCommit(only("git -C /work/repo commit -m \"In another directory\"", "In another directory"),
                "In another directory", "");
        assertCommit(only("git -c user.name=Bot --no-pager commit -m \"Configured\"", "Configured"), "Configured", "");
    }

    @Test
    void splitsRealNewlinesInsideDoubleQuotesIntoSubjectAndBody() {
        String command = "git add -A && git commit -m \"Add spool reader\n\n- reads whole lines\n- skips a partial"
                + " last line\n" + CLAUDE_TRAILER + "\"";

        assertCommit(only(command, "Add spool reader"), "Add spool reader",
                "- reads whole lines\n- skips a partial last line");
    }

    @Test
    void unescapesDoubleQuotedEscapesAndQuotesTheSubjectAsWritten() {
        String command = "git commit -m \"Quote \\\"foo\\\" costs \\$5 via \\`ls\\`\"";

        RecordedWork w = only(command, "Quote \\\"foo\\\" costs \\$5 via \\`ls\\`");

        assertCommit(w, "Quote \"foo\" costs $5 via `ls`", "");
    }

    @Test
    void keepsUnevaluatedExpansionsAsWritten() {
        String command = "git commit -m \"Bump to $(cat VERSION) for $USER\"";

        assertCommit(only(command, "Bump to $(cat VERSION) for $USER"), "Bump to $(cat VERSION) for $USER", "");
    }

    @Test
    void decodesAnsiCQuoting() {
        String command = "git commit -m $'Handle \\'odd\\' names\\n\\nTabs\\tand a \\x41 here'";

        assertCommit(only(command, "Handle \\'odd\\' names"), "Handle 'odd' names", "Tabs\tand a A here");
    }

    // ---- here-documents ----

    @Test
    void readsClaudeCodeHereDocumentMessage() {
        String command = """
                git add src/Aligner.java && git commit -m "$(cat <<'EOF'
                Add evidence aligner

                - fuzzy window search
                - exact quotes only
                %s
                EOF
                )"
                """.formatted(CLAUDE_TRAILER);

        RecordedWork w = only(command, "Add evidence aligner");

        assertCommit(w, "Add evidence aligner", "- fuzzy window search\n- exact quotes only", "src/Aligner.java");
        assertThat(w.subjectStart()).isEqualTo(command.indexOf("Add evidence"));
    }

    @Test
    void readsUnquotedHereDocumentUnescapingDollarsAndBackquotes() {
        String command = """
                git commit -m "$(cat <<EOF
                Price \\$5 fix in `parse`

                Uses $HOME as is
                EOF
                )"
                """;

        assertCommit(only(command, "Price \\$5 fix in `parse`"), "Price $5 fix in `parse`", "Uses $HOME as is");
    }

    @Test
    void readsDoubleQuotedDelimiterLiterally() {
        String command = "git commit -m \"$(cat <<\"EOF\"\nKeep \\$literal\nEOF\n)\"";

        assertCommit(only(command, "Keep \\$literal"), "Keep \\$literal", "");
    }

    @Test
    void stripsLeadingTabsOfDashHereDocument() {
        String command = "git commit -m \"$(cat <<-EOF\n\t\tIndented subject\n\t\n\tIndented body\n\tEOF\n)\"";

        assertCommit(only(command, "Indented subject"), "Indented subject", "Indented body");
    }

    @Test
    void endsHereDocumentAtDelimiterFollowedByClosingParenthesis() {
        String command = "git commit -m \"$(cat <<'EOF'\nSame line close\nEOF)\" && git push";

        assertCommit(only(command, "Same line close"), "Same line close", "");
    }

    @Test
    void readsMessageFromStandardInput() {
        String command = """
                git commit -F - <<'EOF'
                Subject from stdin

                Body from stdin
                EOF
                """;

        assertCommit(only(command, "Subject from stdin"), "Subject from stdin", "Body from stdin");
        assertCommit(only("git commit --file=- <<< 'Here-string subject'", "Here-string subject"),
                "Here-string subject", "");
        assertCommit(only("git commit --file - <<EOF\nSeparate file value\nEOF", "Separate file value"),
                "Separate file value", "");
    }

    // ---- chains and paths ----

    @Test
    void collectsAddedPathsOfAChain() {
        String command = "cd /work/repo && git add src/A.java \"docs/read me.md\" && git add -A && git commit -m"
                + " \"Add A\" && git push";

        assertCommit(only(command, "Add A"), "Add A", "", "src/A.java", "docs/read me.md");
    }

    @Test
    void addAllAndDotGiveNoPaths() {
        assertCommit(only("git add . && git add --all && git add ./ && git commit -m one", "one"), "one", "");
        assertCommit(only("git add -u src -- -weird.txt && git commit -m two", "two"), "two", "", "src", "-weird.txt");
    }

    @Test
    void collectsPathspecsOfTheCommitItself() {
        assertCommit(only("git commit -m \"Only these\" -- a.txt b.txt", "Only these"), "Only these", "", "a.txt",
                "b.txt");
        assertCommit(only("git add a.txt && git commit -m \"And this\" a.txt c.txt", "And this"), "And this", "",
                "a.txt", "c.txt");
    }

    @Test
    void readsEveryCommitOfAChainInOrderEachWithItsOwnAdds() {
        String command = "(git add a.txt; git commit -m first) || echo failed\ngit add b.txt | cat; git commit -m"
                + " 'second'";

        List<RecordedWork> works = ShellWork.parse(command);

        assertThat(works).hasSize(2);
        assertCommit(works.get(0), "first", "", "a.txt");
        assertCommit(works.get(1), "second", "", "b.txt");
        assertThat(command.substring(works.get(1).subjectStart(), works.get(1).subjectEnd())).isEqualTo("second");
    }

    @Test
    void skipsAssignmentsAndWrappersBeforeGit() {
        assertCommit(only("GIT_AUTHOR_NAME=Bot env -i git commit -m Env", "Env"), "Env", "");
        assertCommit(only("if git commit -m Cond; then git push; fi", "Cond"), "Cond", "");
    }

    // ---- not a commit ----

    @Test
    void ignoresInvocationsThatRecordNothing() {
        assertThat(ShellWork.parse("git commit")).isEmpty();
        assertThat(ShellWork.parse("git commit --amend --no-edit")).isEmpty();
        assertThat(ShellWork.parse("git commit --help")).isEmpty();
        assertThat(ShellWork.parse("git commit -h")).isEmpty();
        assertThat(ShellWork.parse("git commit --dry-run -m \"Just looking\"")).isEmpty();
        assertThat(ShellWork.parse("git commit -F notes/msg.txt")).isEmpty();
        assertThat(ShellWork.parse("git commit -m \"\"")).isEmpty();
        assertThat(ShellWork.parse("git commit -m \"$MSG\"")).isEmpty();
        assertThat(ShellWork.parse("git commit -m \"$(cat msg.txt)\"")).isEmpty();
    }

    @Test
    void ignoresOtherCommandsThatMentionCommit() {
        assertThat(ShellWork.parse("git log --grep commit -m")).isEmpty();
        assertThat(ShellWork.parse("echo \"git commit -m x\" && echo 'git commit -m y'")).isEmpty();
        assertThat(ShellWork.parse("git commit-tree 4b825dc -m \"Plumbing\"")).isEmpty();
        assertThat(ShellWork.parse("sh -c 'git commit -m inner'")).isEmpty();
        assertThat(ShellWork.parse("# git commit -m commented out\nls")).isEmpty();
        assertThat(ShellWork.parse("")).isEmpty();
        assertThat(ShellWork.parse(null)).isEmpty();
    }

    // ---- gh ----

    @Test
    void readsPullRequestTitleAndBody() {
        String command = "gh pr create --title \"Add spool reader\" --body \"Reads the spool.\n\nCloses #4\" --base"
                + " main";

        RecordedWork w = only(command, "Add spool reader");

        assertThat(w.kind()).isEqualTo(Kind.PULL_REQUEST);
        assertThat(w.subject()).isEqualTo("Add spool reader");
        assertThat(w.body()).isEqualTo("Reads the spool.\n\nCloses #4");
        assertThat(w.paths()).isEmpty();
    }

    @Test
    void readsShortAndEqualsFormsOfGhOptions() {
        RecordedWork w = only("gh pr create -t 'Short title' -b 'Short body' -l bug -d", "Short title");
        assertThat(w.body()).isEqualTo("Short body");

        RecordedWork eq = only("gh pr create --title='Eq title' --body=Eq", "Eq title");
        assertThat(eq.body()).isEqualTo("Eq");
    }

    @Test
    void bodyFileGivesEmptyBody() {
        RecordedWork w = only("gh pr create --title \"From file\" --body-file notes/pr.md", "From file");

        assertThat(w.body()).isEmpty();
    }

    @Test
    void bodyFileFromStandardInputReadsTheHereDocument() {
        String command = "gh issue create -t \"Piped body\" -F - <<'EOF'\nSteps to reproduce\nEOF\n";

        RecordedWork w = only(command, "Piped body");

        assertThat(w.kind()).isEqualTo(Kind.ISSUE);
        assertThat(w.body()).isEqualTo("Steps to reproduce");
    }

    @Test
    void readsHereDocumentBodyWithoutBoilerplate() {
        String command = """
                gh pr create --title "Align evidence" --body "$(cat <<'EOF'
                ## Summary
                - exact quotes
                %s
                EOF
                )"
                """.formatted(CLAUDE_TRAILER);

        RecordedWork w = only(command, "Align evidence");

        assertThat(w.body()).isEqualTo("## Summary\n- exact quotes");
    }

    @Test
    void readsIssueCreation() {
        String command = "cd /work/repo && gh issue create --title \"Spool grows forever\" --body \"Seen on"
                + " \\`main\\`\" --label bug";

        RecordedWork w = only(command, "Spool grows forever");

        assertThat(w.kind()).isEqualTo(Kind.ISSUE);
        assertThat(w.body()).isEqualTo("Seen on `main`");
    }

    @Test
    void ignoresGhCallsThatCreateNothingNamed() {
        assertThat(ShellWork.parse("gh pr create --fill")).isEmpty();
        assertThat(ShellWork.parse("gh pr list --state open")).isEmpty();
        assertThat(ShellWork.parse("gh pr create --dry-run --title x")).isEmpty();
        assertThat(ShellWork.parse("gh project create --title \"Board\"")).isEmpty();
    }

    // ---- truncated text ----

    @Test
    void readsWhatItCanOfACommandCutShort() {
        assertCommit(only("git commit -m \"Cut before the quote", "Cut before the quote"), "Cut before the quote", "");
        assertCommit(only("git commit -m \"$(cat <<'EOF'\nCut subject\n\n- body li", "Cut subject"), "Cut subject",
                "- body li");
    }

    @Test
    void neverThrowsOnAnyPrefixOfAHardCommand() {
        String command = """
                cd "/work/repo" && git add a.txt && git commit -m "$(cat <<'EOF'
                Fix \\"quoted\\" subject

                Body with $'x' and `y` and $(echo z) and ${V}
                EOF
                )" && gh pr create -t $'PR\\ttitle' -b "$(cat <<EOF
                body
                EOF
                )" 2>&1 | tail -3
                """;
        for (int cut = 0; cut <= command.length(); cut++) {
            String prefix = command.substring(0, cut);
            assertThatCode(() -> ShellWork.parse(prefix)).doesNotThrowAnyException();
            for (RecordedWork w : ShellWork.parse(prefix)) {
                assertThat(prefix.substring(w.subjectStart(), w.subjectEnd())).isNotBlank();
            }
        }
        List<RecordedWork> whole = ShellWork.parse(command);
        assertThat(whole).extracting(RecordedWork::subject).containsExactly("Fix \\\"quoted\\\" subject", "PR\ttitle");
        assertThat(whole.get(0).body()).isEqualTo("Body with $'x' and `y` and $(echo z) and ${V}");
        assertThat(whole.get(1).body()).isEqualTo("body");
    }

    @Test
    void neverThrowsOnRandomShellText() {
        String[] atoms = { "git", " ", "commit", "add", "-m", "-am", "-F", "-", "--file=-", "--message=", "\"", "'",
                "$'", "\\", "\n", "\t", "$(", ")", "(", "cat", "<<", "<<-", "<<<", "'EOF'", "EOF", "EOF)", "`", "${",
                "}", "$((", "&&", "||", ";", "|", "&", "2>&1", "\\x", "\\U", "FFFFFFFF", "\\c", "\\0", "Subject",
                "\uD83D", "😀", "gh", "pr", "issue", "create", "--title", "-t", "--body", "-b", "--body-file", "cd",
                "timeout", "5", "head", "echo", "$?", "#", "<(", "<", ">", "3<<X", "X", "\r", "\\\n" };
        String[] starts = { "", "git commit -m ", "git add a && git commit -F - <<'EOF'\n", "gh pr create -t " };
        Random random = new Random(42);
        int records = 0;
        for (int i = 0; i < 5_000; i++) {
            StringBuilder sb = new StringBuilder(starts[random.nextInt(starts.length)]);
            for (int k = random.nextInt(40); k > 0; k--) {
                sb.append(atoms[random.nextInt(atoms.length)]);
            }
            String command = sb.toString();
            for (RecordedWork w : ShellWork.parse(command)) {
                assertThat(command.substring(w.subjectStart(), w.subjectEnd())).isNotBlank();
                records++;
            }
            assertThat(CommandKey.normalize(command)).isNotNull();
        }
        assertThat(records).isPositive();
    }

    @Test
    void deeplyNestedSubstitutionsAreKeptAsWritten() {
        String nested = "$(".repeat(200) + ")".repeat(200);

        assertCommit(only("git commit -m \"Nest " + nested + "\"", "Nest " + nested), "Nest " + nested, "");
    }

}
