package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnippetTests {

    /**
     * The share of these words a sentence holds (stand-in for the index's IDF coverage).
     */
    private static double share(String sentence, Set<String> words) {
        long held = Arrays.stream(sentence.toLowerCase().split("\\W+")).filter(words::contains).distinct().count();
        return (double) held / words.size();
    }

    @Test
    void theSentenceHoldingMostOfTheQueryWinsAcrossTheSources() {
        Set<String> query = Set.of("pottery", "kids");
        List<String> texts = List.of("Caroline: Hey Mel, what's up? Been a busy week since we talked.",
                "Melanie: So much since we talked! Last Fri I finally took my kids to a pottery workshop. It was fun.");

        assertThat(Snippet.best(texts, s -> share(s, query)))
            .isEqualTo("Last Fri I finally took my kids to a pottery workshop.");
    }

    @Test
    void equalSharesKeepTheFirstInTheOrderGivenAndLinesSplitToo() {
        Set<String> query = Set.of("redis");
        List<String> texts = List.of("We tried Redis\nthen dropped   Redis for Caffeine.", "Redis again.");

        assertThat(Snippet.best(texts, s -> share(s, query))).isEqualTo("We tried Redis");
    }

    @Test
    void nothingWhenNoSentenceHoldsAQueryTermAndLongSentencesAreBounded() {
        assertThat(Snippet.best(List.of("Nothing relevant here."), s -> share(s, Set.of("redis")))).isEmpty();
        assertThat(Snippet.best(Arrays.asList(null, ""), s -> 1.0)).isEmpty();
        String longSentence = "redis " + "x".repeat(1_000);
        assertThat(Snippet.best(List.of(longSentence), s -> share(s, Set.of("redis")))).hasSize(Snippet.MAX_CHARS);
    }

}
