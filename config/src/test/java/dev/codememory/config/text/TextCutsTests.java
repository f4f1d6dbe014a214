package dev.codememory.config.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextCutsTests {

    // ---- excerpts ----

    @Test
    void shortSourceIsQuotedWholeWithoutSurroundingWhitespace() {
        assertThat(TextCuts.excerpt("  \n fix the flaky test \n", false)).isEqualTo("fix the flaky test");
    }

    @Test
    void blankOrMissingSourceHasNoExcerpt() {
        assertThat(TextCuts.excerpt(" \n\t ", false)).isNull();
        assertThat(TextCuts.excerpt(null, false)).isNull();
    }

    @Test
    void longSourceIsCutAtTheFirstLineBreakLeavingThirtyChars() {
        String source = "Short line.\nThe spool reader skips partial lines.\n" + "z".repeat(400);

        assertThat(TextCuts.excerpt(source, false)).isEqualTo("Short line.\nThe spool reader skips partial lines.");
    }

    @Test
    void longSourceWithoutBoundariesIsCutAtTheLastSpaceWithinThreeHundredChars() {
        String source = "word ".repeat(100);

        String excerpt = TextCuts.excerpt(source, false);

        assertThat(excerpt).isEqualTo("word ".repeat(60).strip()).hasSize(299);
    }

    @Test
    void hardCutNeverSplitsASurrogatePair() {
        String split = "a".repeat(299) + "😀" + "b".repeat(100);
        String whole = "a".repeat(298) + "😀" + "b".repeat(100);

        assertThat(TextCuts.excerpt(split, false)).isEqualTo("a".repeat(299));
        assertThat(TextCuts.excerpt(whole, false)).isEqualTo("a".repeat(298) + "😀");
    }

    @Test
    void jsonTextIsAlsoCutAtAnEscapedLineBreakButNotAtAnEscapedBackslash() {
        String json = "{\"stdout\":\"C:\\\\new\\\\dir was created by the build tool\\nnext line " + "y".repeat(400)
                + "\"}";

        assertThat(TextCuts.excerpt(json, true))
            .isEqualTo("{\"stdout\":\"C:\\\\new\\\\dir was created by the build tool");
    }

    @Test
    void lineOfJsonTextEndsAtAnEscapedLineBreakOrTheEndOfTheString() {
        String json = "{\"stderr\":\"boom: \\\"quoted\\\" failure\",\"stdout\":\"[ERROR] one\\n[ERROR] two\"}";

        assertThat(TextCuts.line(json, 11, true)).isEqualTo("boom: \\\"quoted\\\" failure");
        assertThat(TextCuts.line(json, json.indexOf("[ERROR]"), true)).isEqualTo("[ERROR] one");
    }

    // ---- sentences ----

    @Test
    void sentencesSplitAtEndsAndLinesButNotAfterAbbreviations() {
        String text = "Use e.g. DuckDB. Then run it!\n- Next item? Yes.\n"
                + "```java\nTODO: not prose.\n```\n> quoted line\n1. numbered point\n- [x] checked off\n"
                + "결정했다. 하지 마.";

        assertThat(TextCuts.sentences(text)).containsExactly("Use e.g. DuckDB.", "Then run it!", "Next item?", "Yes.",
                "quoted line", "numbered point", "checked off", "결정했다.", "하지 마.");
    }

    @Test
    void sentencesKeepVersionNumbersAndPathsWhole() {
        assertThat(TextCuts.sentences("Bump to 0.2.0 and run ./mvnw verify. Done."))
            .containsExactly("Bump to 0.2.0 and run ./mvnw verify.", "Done.");
    }

    // ---- titles and escapes ----

    @Test
    void shortenCutsAtANearbySpaceAndAddsAnEllipsis() {
        assertThat(TextCuts.shorten("publish the release notes", 100)).isEqualTo("publish the release notes");
        assertThat(TextCuts.shorten("publish the release notes", 20)).isEqualTo("publish the release…");
        assertThat(TextCuts.shorten("abcdefghij", 5)).isEqualTo("abcd…");
    }

    @Test
    void firstLineSkipsBlankLines() {
        assertThat(TextCuts.firstLine("\n  \n  run the tests  \nand more")).isEqualTo("run the tests");
        assertThat(TextCuts.firstLine(null)).isEmpty();
    }

    @Test
    void jsonEscapeWritesWhatJacksonWrites() {
        assertThat(TextCuts.jsonEscape("a\"b\\c\nd\te\u0001/é")).isEqualTo("a\\\"b\\\\c\\nd\\te\\u0001/é");
    }

}
