package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ContextBudgetTests {

    @Test
    void estimatesOneTokenPerFourCharactersRoundedUp() {
        assertThat(ContextBudget.estimateTokens(0)).isZero();
        assertThat(ContextBudget.estimateTokens(1)).isEqualTo(1);
        assertThat(ContextBudget.estimateTokens(4)).isEqualTo(1);
        assertThat(ContextBudget.estimateTokens(5)).isEqualTo(2);
        assertThat(ContextBudget.estimateTokens("x".repeat(8_001))).isEqualTo(2_001);
        assertThat(ContextBudget.estimateTokens(Integer.MAX_VALUE)).isEqualTo(536_870_912);
    }

    @Test
    void charLimitIsTheLongestTextBothLimitsAllow() {
        for (ContextBudget budget : new ContextBudget[] { ContextBudget.DEFAULT, ContextBudget.ofTokens(2_501),
                ContextBudget.ofTokens(100_000), new ContextBudget(1, 10_000), new ContextBudget(50, 7) }) {
            assertThat(budget.allows(budget.charLimit())).as("%s", budget).isTrue();
            assertThat(budget.allows(budget.charLimit() + 1)).as("%s", budget).isFalse();
        }
        assertThat(ContextBudget.DEFAULT.charLimit()).isEqualTo(8_000);
        assertThat(ContextBudget.ofTokens(100_000).charLimit()).isEqualTo(10_000);
    }

    @Test
    void charactersCannotBeRaisedAboveClaudeCodesCap() {
        assertThatThrownBy(() -> new ContextBudget(2_000, 10_001)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("maxChars");
        assertThatThrownBy(() -> new ContextBudget(0, 10_000)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("maxTokens");
    }

    @Test
    void boundedTextAppendsWholePiecesOnlyWhileTheyFit() {
        BoundedText text = new BoundedText(new ContextBudget(3, 10_000));

        assertThat(text.append("x".repeat(10))).isTrue();
        assertThat(text.append("y".repeat(3))).isFalse();
        assertThat(text.append("y".repeat(2))).isTrue();
        assertThat(text.text()).isEqualTo("x".repeat(10) + "yy");
        assertThat(text.room()).isZero();
    }

    @Test
    void shortenedAppendCutsTheContentAndNamesTheShowCommand() {
        BoundedText text = new BoundedText(new ContextBudget(2_000, 300));
        String content = "word ".repeat(200).strip();

        assertThat(text.appendShortened("Head:\n", content, "mem:a7Bc3x", 0)).isTrue();

        assertThat(text.text()).hasSizeLessThanOrEqualTo(300)
            .startsWith("Head:\nword word")
            .endsWith("word…\n(cut to fit; `show mem:a7Bc3x` prints it in full)");
    }

    @Test
    void shortenedAppendLeavesOutWhatWouldKeepTooLittle() {
        BoundedText text = new BoundedText(new ContextBudget(2_000, 120));

        assertThat(text.appendShortened("Head:\n", "word ".repeat(200), "mem:a7Bc3x", 0)).isFalse();
        assertThat(text.text()).isEmpty();
    }

    @Test
    void shortenedAppendLeavesTheReserveFree() {
        BoundedText text = new BoundedText(new ContextBudget(2_000, 1_000));

        assertThat(text.appendShortened("Head:\n", "word ".repeat(400), "mem:a7Bc3x", 600)).isTrue();

        assertThat(text.room()).isGreaterThanOrEqualTo(600);
    }

}
