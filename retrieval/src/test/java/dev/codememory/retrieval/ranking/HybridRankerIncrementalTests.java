package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HybridRankerIncrementalTests {

    private static final LocalDateTime NOW = LocalDateTime.of(2024, 3, 1, 12, 0);

    private static final RankingSettings SETTINGS = RankingSettings.defaults().with("turnLexical", "0.3");

    private static MemoryDoc doc(int i, String text, String part) {
        return new MemoryDoc("m" + i, "decision", "active", NOW.minusDays(i), text, List.of(part));
    }

    private static final List<MemoryDoc> FIRST = List.of(
            doc(1, "we chose PostgreSQL for the ledger", "which database for the ledger?"),
            doc(2, "the retry policy backs off exponentially", "how do retries work"),
            doc(3, "Kafka keeps ordering per partition for the ledger", "ordering of ledger events"));

    private static final List<MemoryDoc> LATER = List.of(
            doc(4, "the ledger reconciler runs nightly", "when does the reconciler run"),
            doc(5, "PostgreSQL partial indexes on status", "index the status column"));

    @Test
    void addingLaterRanksAsIndexingEverythingAtOnce() {
        HybridRanker incremental = new HybridRanker(FIRST, SETTINGS);
        incremental.add(LATER);
        HybridRanker whole = new HybridRanker(concat(FIRST, LATER), SETTINGS);

        for (String query : List.of("ledger database", "PostgreSQL status index", "retry backoff", "reconciler")) {
            assertThat(incremental.rank(query, Map.of("m2", 0.4), NOW, 10))
                .isEqualTo(whole.rank(query, Map.of("m2", 0.4), NOW, 10));
        }
        assertThat(incremental.size()).isEqualTo(5);
    }

    @Test
    void removingRanksAsNeverHavingIndexedIt() {
        HybridRanker incremental = new HybridRanker(concat(FIRST, LATER), SETTINGS);
        incremental.remove(List.of("m1", "m4", "unknown"));
        HybridRanker without = new HybridRanker(List.of(FIRST.get(1), FIRST.get(2), LATER.get(1)), SETTINGS);

        for (String query : List.of("ledger database", "PostgreSQL status index", "reconciler nightly")) {
            List<RankedMemory> ranked = incremental.rank(query, null, NOW, 10);
            assertThat(ranked).isEqualTo(without.rank(query, null, NOW, 10));
            assertThat(ranked).extracting(RankedMemory::memoryId).doesNotContain("m1", "m4");
        }
        assertThat(incremental.size()).isEqualTo(3);
        assertThat(incremental.contains("m1")).isFalse();
    }

    @Test
    void aQueryRanksTheSameWhateverRanBeforeIt() {
        HybridRanker ranker = new HybridRanker(concat(FIRST, LATER), SETTINGS);
        HybridRanker fresh = new HybridRanker(concat(FIRST, LATER), SETTINGS);

        List<RankedMemory> first = ranker.rank("ledger database", null, NOW, 10);
        ranker.rank("PostgreSQL status index ordering partition", Map.of("m3", 0.5), NOW, 10);
        ranker.rank("retry backoff reconciler", null, NOW, 10);

        assertThat(ranker.rank("ledger database", null, NOW, 10)).isEqualTo(first)
            .isEqualTo(fresh.rank("ledger database", null, NOW, 10))
            .isNotEmpty();
    }

    @Test
    void topByScoreKeepsTheBestPositiveScoresTiesByPosition() {
        double[] scores = { 0.5, 0, 0.9, 0.5, -1, 0.7, 0.5 };

        assertThat(HybridRanker.topByScore(scores, new int[] { 6, 5, 4, 3, 2, 1, 0 }, 4)).containsExactly(2, 5, 0, 3);
        assertThat(HybridRanker.topByScore(scores, new int[] { 0, 1, 2 }, 10)).containsExactly(2, 0);
        assertThat(HybridRanker.topByScore(scores, new int[] { 1, 4 }, 3)).isEmpty();
    }

    private static List<MemoryDoc> concat(List<MemoryDoc> a, List<MemoryDoc> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

}
