package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.text.TextCuts;
import org.junit.jupiter.api.Test;

class ContextTextTests {

    @Test
    void shortenKeepsShortTextWhole() {
        assertThat(TextCuts.shorten("use DuckDB", 100)).isEqualTo("use DuckDB");
        assertThat(TextCuts.shorten("x".repeat(100), 100)).hasSize(100);
    }

    @Test
    void shortenCutsAtTheLastWordBoundaryAndAddsAnEllipsis() {
        String text = "the graduation job reads the spool, extracts candidate memories, validates them against "
                + "their source events and aligns every evidence quote";

        String cut = TextCuts.shorten(text, 100);

        assertThat(cut).hasSizeLessThanOrEqualTo(100)
            .endsWith("…")
            .isEqualTo("the graduation job reads the spool, extracts candidate memories, validates them against "
                    + "their…");
        String head = cut.substring(0, cut.length() - 1);
        assertThat(text).startsWith(head);
        assertThat(Character.isWhitespace(text.charAt(head.length()))).isTrue();
    }

    @Test
    void shortenCutsHardInsideOneLongWordWithoutSplittingASurrogatePair() {
        assertThat(TextCuts.shorten("abcdefghij", 5)).isEqualTo("abcd…");
        assertThat(TextCuts.shorten("abc😀defgh", 5)).isEqualTo("abc…");
        assertThat(TextCuts.shorten("ab😀cdefgh", 5)).isEqualTo("ab😀…");
    }

    @Test
    void oneLineMakesEveryRunOfWhitespaceOrControlCharactersOneSpace() {
        assertThat(ContextText.oneLine("  run\r\n the \u0007 tests\t\u2028now  ")).isEqualTo("run the tests now");
        assertThat(ContextText.oneLine(" \n\t ")).isEmpty();
    }

    @Test
    void quotedPrefixesEveryLineAndCollapsesBlankRuns() {
        assertThat(ContextText.quoted("\n\nTitle\r\n\n\n\nbody line  \n\u0000second\n\n"))
            .isEqualTo("> Title\n>\n> body line\n>  second");
        assertThat(ContextText.quoted(" \n ")).isEmpty();
    }

    @Test
    void citationsMustHaveTheMemForm() {
        assertThat(ContextText.requireCitation("mem:a7Bc3x")).isEqualTo("mem:a7Bc3x");
        assertThatThrownBy(() -> ContextText.requireCitation("a7Bc3x")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("a7Bc3x");
        assertThatThrownBy(() -> ContextText.requireCitation("mem:a7 c3x]"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void knownKindsHaveLabelsAndOthersAreCapitalised() {
        assertThat(ContextText.kindLabel("decision")).isEqualTo("Decision");
        assertThat(ContextText.kindLabel("summary")).isEqualTo("Session summary");
        assertThat(ContextText.kindLabel("runbook")).isEqualTo("Runbook");
        assertThat(ContextText.kindLabel(" ")).isEqualTo("Memory");
    }

}
