package dev.codememory.processors.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.Quote;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionSummarizerTests {

    @Test
    void aPromptQuotedBothAsAskedAndAsAPreferenceIsKeptOnce() {
        Quote prompt = new Quote("ev_1", "prompt", "I prefer small commits with messages that say why.");
        Quote other = new Quote("ev_2", "prompt", "Use PostgreSQL");

        assertThat(SessionSummarizer.dedupe(List.of(prompt, other, prompt))).containsExactly(prompt, other);
        assertThat(SessionSummarizer.dedupe(List.of(prompt, prompt))).containsExactly(prompt);
    }

    @Test
    void atMostTwentyQuotesInFirstSeenOrder() {
        List<Quote> quotes = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            quotes.add(new Quote("ev_" + i, "prompt", "q" + i));
            quotes.add(new Quote("ev_" + i, "prompt", "q" + i));
        }

        List<Quote> kept = SessionSummarizer.dedupe(quotes);

        assertThat(kept).hasSize(20);
        assertThat(kept.get(0).text()).isEqualTo("q0");
        assertThat(kept.get(19).text()).isEqualTo("q19");
    }
}
