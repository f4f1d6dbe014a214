package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ErrorSummaryTests {

    /**
     * Only as much of the error line is gated as its first clause can show: a minified
     * line of a megabyte (once some 10 s, gated whole) summarises as its first sentence
     * does.
     */
    @Test
    void summarisesAMegabyteLineAsItsFirstSentence() {
        String sentence = "TypeError: cannot read properties of undefined.";
        String line = sentence + " at bundle.min.js " + "a=b(c,d);".repeat(1_000_000 / 9);

        String summary = assertTimeoutPreemptively(Duration.ofSeconds(3), () -> ErrorSummary.of(line, null).line());

        assertThat(summary).isEqualTo(ErrorSummary.of(sentence, null).line()).contains("cannot read properties");
    }

}
