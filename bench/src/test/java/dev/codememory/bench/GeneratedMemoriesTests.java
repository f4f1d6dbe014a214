package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.retrieval.ranking.QueryTokenizer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GeneratedMemoriesTests {

    @Test
    void sameIndexGivesTheSameMemory() {
        assertThat(GeneratedMemories.of(4_242)).isEqualTo(GeneratedMemories.of(4_242));
        assertThat(GeneratedMemories.of(4_242)).isNotEqualTo(GeneratedMemories.of(4_243));
        assertThat(GeneratedMemories.of(0).title()).isEqualTo("Use PostgreSQL for the payment webhook");
    }

    @Test
    void replyStatesTheBodyFirstSoTheEvidenceSpansAreRealSubstrings() {
        for (int i = 0; i < 1_000; i++) {
            GeneratedMemories.Memory m = GeneratedMemories.of(i);
            assertThat(m.reply()).startsWith(m.body());
            assertThat(m.reply().length()).isGreaterThan(m.body().length());
            assertThat(m.prompt()).isNotBlank();
        }
    }

    @Test
    void everyKindOccursInRoughlyItsShare() {
        Map<String, Integer> kinds = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            kinds.merge(GeneratedMemories.of(i).kind(), 1, Integer::sum);
        }
        assertThat(kinds).containsOnlyKeys("decision", "insight", "fact", "preference", "task", "exchange",
                "observation");
        assertThat(kinds.get("decision")).isBetween(1_800, 2_200);
        assertThat(kinds.get("exchange")).isBetween(1_800, 2_200);
        assertThat(kinds.get("observation")).isBetween(800, 1_200);
    }

    @Test
    void vocabularyHasALongTailAndNoTermInEveryMemory() {
        Map<String, Integer> documentFrequency = new HashMap<>();
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            GeneratedMemories.Memory m = GeneratedMemories.of(i);
            new HashSet<>(QueryTokenizer.tokenize(m.title() + "\n" + m.body()))
                .forEach(t -> documentFrequency.merge(t, 1, Integer::sum));
        }
        long rare = documentFrequency.values().stream().filter(df -> df == 1).count();
        int commonest = documentFrequency.values().stream().max(Integer::compare).orElseThrow();
        assertThat(documentFrequency).hasSizeGreaterThan(n / 2);
        assertThat(rare).isGreaterThan(documentFrequency.size() / 2);
        assertThat(commonest).isLessThan(n / 2);
    }

    @Test
    void questionSharesAtLeastThreeTermsWithItsMemory() {
        for (int i = 0; i < 1_000; i++) {
            GeneratedMemories.Memory m = GeneratedMemories.of(i);
            Set<String> shared = new HashSet<>(QueryTokenizer.tokenize(m.question()));
            shared.retainAll(QueryTokenizer.tokenize(m.title() + "\n" + m.body()));
            assertThat(shared).as(m.question()).hasSizeGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void negativeIndexIsRefused() {
        assertThatThrownBy(() -> GeneratedMemories.of(-1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("-1");
    }

}
