package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.processors.shell.ShellCommand.Redirect;
import dev.codememory.processors.shell.ShellCommand.Word;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShellParserTests {

    private static List<String> values(ShellCommand c) {
        return c.words().stream().map(Word::value).toList();
    }

    @Test
    void splitsAtEveryControlOperatorAndRemembersIt() {
        List<ShellCommand> commands = ShellParser.parse("a && b || c ; d | e |& f & g\nh (i) ;; j");

        assertThat(commands).extracting(c -> values(c).get(0))
            .containsExactly("a", "b", "c", "d", "e", "f", "g", "h", "i", "j");
        assertThat(commands).extracting(ShellCommand::separator)
            .containsExactly("", "&&", "||", ";", "|", "|&", "&", "\n", "(", ";;");
        assertThat(commands.get(1).separatorStart()).isEqualTo(2);
    }

    @Test
    void keepsOperatorsInsideQuotesAndJoinsContinuedLines() {
        List<ShellCommand> commands = ShellParser.parse("echo 'a && b' \"c; d\" e\\;f \\\n  g#h");

        assertThat(commands).hasSize(1);
        assertThat(values(commands.get(0))).containsExactly("echo", "a && b", "c; d", "e;f", "g#h");
    }

    @Test
    void mapsEveryCharacterBackToItsRawSpan() {
        String command = "x \"a\\\"b\"c";
        Word w = ShellParser.parse(command).get(0).words().get(1);

        assertThat(w.value()).isEqualTo("a\"bc");
        assertThat(w.start()).isEqualTo(2);
        assertThat(w.end()).isEqualTo(9);
        assertThat(w.text().rawFrom(1)).isEqualTo(4);
        assertThat(w.text().rawTo(1)).isEqualTo(6);
        assertThat(w.text().rawFrom(3)).isEqualTo(8);
    }

    @Test
    void keepsABackslashBeforeOrdinaryCharactersInDoubleQuotes() {
        assertThat(values(ShellParser.parse("x \"a\\nb \\\\ \\q\"").get(0))).containsExactly("x", "a\\nb \\ \\q");
    }

    @Test
    void decodesAnsiCEscapes() {
        String command = "x $'\\a\\e\\101\\u00e9\\U0001F600\\cA\\?\\z'";

        assertThat(values(ShellParser.parse(command).get(0)).get(1)).isEqualTo("\u0007\u001bAé😀\u0001?\\z");
    }

    @Test
    void replacesAnOutOfRangeCodePointAndKeepsAMultiLineDelimiterFromRunningPastItsLine() {
        assertThat(values(ShellParser.parse("x $'\\UFFFFFFFF'").get(0))).containsExactly("x", "\uFFFD");
        assertThat(values(ShellParser.parse("x \"$(cat <<'A\nB'\nA\nB\n)\"").get(0))).containsExactly("x", "A\nB\n)\"");
    }

    @Test
    void readsRedirectionsApartFromWords() {
        ShellCommand c = ShellParser.parse("make 2>&1 >out.log &>>all.log <in.txt 3>&- arg").get(0);

        assertThat(values(c)).containsExactly("make", "arg");
        assertThat(c.redirects()).extracting(Redirect::fd).containsExactly("2", "", "", "", "3");
        assertThat(c.redirects()).extracting(Redirect::operator).containsExactly(">&", ">", "&>>", "<", ">&");
        assertThat(c.redirects()).extracting(r -> r.target().value())
            .containsExactly("1", "out.log", "all.log", "in.txt", "-");
        assertThat(c.stdin()).isNull();
    }

    @Test
    void readsHereDocumentBodiesInOrderAfterTheLine() {
        String command = "cat <<A <<-'B' | tr a b\nfirst $X\nA\n\tsecond $X\n\tB\nnext";

        List<ShellCommand> commands = ShellParser.parse(command);

        assertThat(commands).extracting(c -> values(c).get(0)).containsExactly("cat", "tr", "next");
        List<Redirect> docs = commands.get(0).redirects();
        assertThat(docs.get(0).document().body().value()).isEqualTo("first $X\n");
        assertThat(docs.get(0).document().body().expanded(6)).isTrue();
        assertThat(docs.get(1).document().body().value()).isEqualTo("second $X\n");
        assertThat(docs.get(1).document().body().expanded(7)).isFalse();
        assertThat(docs.get(0).document().bodyStart()).isEqualTo(command.indexOf("first"));
        assertThat(commands.get(0).stdin().value()).isEqualTo("second $X\n");
    }

    @Test
    void readsHereStringAsItsWordAndALineBreak() {
        ShellText in = ShellParser.parse("git commit -F - <<< \"one two\"").get(0).stdin();

        assertThat(in.value()).isEqualTo("one two\n");
        assertThat(in.rawFrom(7)).isEqualTo(-1);
    }

    @Test
    void takesTheOutputOfALoneCatAsTheSubstitutionValue() {
        String command = "x \"$(cat <<'EOF'\nbody line\n\nEOF\n)\" \"$(cat - <<< word)\" \"$(cat f <<< w)\"";

        List<String> words = values(ShellParser.parse(command).get(0));

        assertThat(words).containsExactly("x", "body line", "word", "$(cat f <<< w)");
    }

    @Test
    void keepsArithmeticParameterAndProcessSubstitutionAsWritten() {
        ShellCommand c = ShellParser.parse("diff <(sort a) >(tee b) $((1 + (2))) ${V:-x} $1$?").get(0);

        assertThat(values(c)).containsExactly("diff", "<(sort a)", ">(tee b)", "$((1 + (2)))", "${V:-x}", "$1$?");
        assertThat(c.words().get(5).text().expanded(0)).isTrue();
    }

    @Test
    void closesTheSubstitutionOnlyAtItsOwnParenthesis() {
        ShellCommand c = ShellParser.parse("echo \"$( (cd a && ls) | wc -l )\" done").get(0);

        assertThat(values(c)).containsExactly("echo", "$( (cd a && ls) | wc -l )", "done");
    }

    @Test
    void runsUnbalancedQuotesToTheEnd() {
        assertThat(values(ShellParser.parse("echo 'never closed && rm x").get(0))).containsExactly("echo",
                "never closed && rm x");
        assertThat(values(ShellParser.parse("echo \"half $(cut").get(0))).containsExactly("echo", "half $(cut");
        assertThat(ShellParser.parse("")).isEmpty();
        assertThat(ShellParser.parse(" ;; && \n")).isEmpty();
    }

}
