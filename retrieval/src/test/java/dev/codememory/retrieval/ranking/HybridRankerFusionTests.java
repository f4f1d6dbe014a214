package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HybridRankerFusionTests {

    private static final LocalDateTime NOW = LocalDateTime.of(2024, 3, 1, 12, 0);

    /**
     * 0.4 semantic, 0.25 lexical, 0.2 recency, 0.15 status; cosine 0.15 → 0, 0.75 → 1;
     * half-life 30 days.
     */
    private static final RankingSettings SETTINGS = new RankingSettings(1.2, 0.75, 0.4, 0.25, 0.2, 0.15, 30, 0.15, 0.75,
            0.0, 100, RankingSettings.Fusion.SCORE, Map.of("exchange", 0.9, "summary", 0.6), 0.2, 0.03, 1.0, 0.8, 7,
            MatchBand.SUGGESTED_SCORE, 0);

    private static MemoryDoc doc(String id, String kind, LocalDateTime created, String text) {
        return new MemoryDoc(id, kind, "active", created, text);
    }

    private static HybridRanker ranker(MemoryDoc... docs) {
        return new HybridRanker(List.of(docs), SETTINGS);
    }

    @Test
    void fusedScoreIsTheNormalisedWeightedSum() {
        HybridRanker ranker = ranker();
        MemoryDoc d = doc("m", "exchange", NOW.minusDays(30), "");

        RankedMemory r = ranker.fuse(d, 0.45, 0.5, NOW);

        assertThat(r.semantic()).isCloseTo(0.5, within(1e-12));
        assertThat(r.recency()).isCloseTo(0.5, within(1e-12));
        assertThat(r.status()).isCloseTo(0.9, within(1e-12));
        assertThat(r.score()).isCloseTo(0.4 * 0.5 + 0.25 * 0.5 + 0.2 * 0.5 + 0.15 * 0.9, within(1e-12));
    }

    @Test
    void perfectSignalsScoreOneAndSignalsAreClamped() {
        HybridRanker ranker = ranker();

        assertThat(ranker.fuse(doc("m", "decision", NOW, ""), 0.99, 1.4, NOW).score()).isCloseTo(1.0, within(1e-12));
        assertThat(ranker.fuse(doc("m", "decision", NOW.plusDays(2), ""), -0.3, -1, NOW).score()).isCloseTo(0.2 + 0.15,
                within(1e-12));
    }

    @Test
    void withoutAQueryVectorTheOtherWeightsAreRenormalisedAndDiscounted() {
        HybridRanker ranker = ranker();
        MemoryDoc d = doc("m", "exchange", NOW.minusDays(30), "");

        RankedMemory r = ranker.fuseWithoutSemantic(d, 0.5, NOW);

        assertThat(r.semantic()).isZero();
        assertThat(r.score()).isCloseTo(HybridRanker.TEXT_ONLY_CONFIDENCE * (0.25 * 0.5 + 0.2 * 0.5 + 0.15 * 0.9) / 0.6,
                within(1e-12));
        assertThat(ranker.fuseWithoutSemantic(doc("p", "decision", NOW, ""), 1.0, NOW).score())
            .isCloseTo(HybridRanker.TEXT_ONLY_CONFIDENCE, within(1e-12))
            .isLessThan(MatchBand.HIGH_SCORE);
    }

    /**
     * What the cold hook (no query vector) puts in the suggested band stays there when
     * serve adds the vector signal, whatever the cosine: adding a signal must not make a
     * strong lexical match disappear. The floor only lifts: a memory whose cosine says
     * more than its words keeps the fused score.
     */
    @Test
    void aMatchWordsPutInTheBandStaysThereWhenTheVectorSignalIsAdded() {
        HybridRanker ranker = new HybridRanker(List.of(
                doc("collector", "exchange", NOW,
                        "the collector picks up the claude code jsonl chat logs from the projects folder"),
                doc("camera", "exchange", NOW, "the ptz camera connector speaks onvif")), RankingSettings.defaults());
        String query = "how does the collector pick up the claude code jsonl chat logs";

        List<RankedMemory> cold = ranker.rank(query, null, NOW, 5);
        List<RankedMemory> served = ranker.rank(query, Map.of("collector", 0.30, "camera", 0.20), NOW, 5);

        assertThat(cold.get(0).memoryId()).isEqualTo("collector");
        assertThat(cold.get(0).score()).isGreaterThanOrEqualTo(MatchBand.SUGGESTED_SCORE);
        assertThat(served.get(0).memoryId()).isEqualTo("collector");
        assertThat(served.get(0).score()).isEqualTo(cold.get(0).score());
        assertThat(served.get(0).semantic()).isCloseTo(0.25, within(1e-12));
        assertThat(ranker.fuse(doc("close", "decision", NOW, ""), 0.70, 1.0, NOW).score())
            .isGreaterThan(ranker.fuseWithoutSemantic(doc("close", "decision", NOW, ""), 1.0, NOW).score());
        assertThat(new HybridRanker(List.of(), RankingSettings.defaults().with("textFloor", "1"))
            .fuse(doc("collector", "exchange", NOW, ""), 0.30, 1.0, NOW)
            .score()).isLessThan(MatchBand.SUGGESTED_SCORE);
    }

    @Test
    void rankingWithoutVectorsNeverReachesTheHighBandButAFullMatchIsSuggested() {
        HybridRanker ranker = ranker(doc("a", "decision", NOW, "use postgresql for invoices"),
                doc("b", "decision", NOW, "the website keeps its invoices in sqlite"),
                doc("c", "decision", NOW, "teal checkout button"));

        List<RankedMemory> ranked = ranker.rank("postgresql invoices", null, NOW, 3);

        assertThat(ranked).extracting(RankedMemory::memoryId).startsWith("a", "b");
        assertThat(ranked).allSatisfy(r -> assertThat(r.semantic()).isZero());
        assertThat(MatchBand.of(ranked.stream().map(RankedMemory::score).toList())).isEqualTo(MatchBand.SUGGESTED);
        assertThat(ranked.get(0).score()).isGreaterThan(ranked.get(1).score());
    }

    @Test
    void aToolObservationHasNoVectorAndIsScoredOnItsWordsNotAsAFarVector() {
        HybridRanker ranker = ranker(doc("commit", "observation", NOW, "git commit -m remove the sync commits"),
                doc("talk", "exchange", NOW, "where do the sync commits come from"));

        // the vector search returns the exchange only: observations are not in the index
        List<RankedMemory> ranked = ranker.rank("remove the sync commits", Map.of("talk", 0.6), NOW, 2);

        RankedMemory observation = ranked.stream().filter(r -> r.memoryId().equals("commit")).findFirst().orElseThrow();
        assertThat(observation.semantic()).isZero();
        assertThat(observation.lexical()).isCloseTo(1.0, within(1e-12));
        // words stand in for the meaning: (0.4 + 0.25 + 0.2 + 0.15) / 1.0 * 0.9
        assertThat(observation.score()).isCloseTo(0.9, within(1e-9));
        // the same without a query vector: the cold hook ranks it as serve does
        RankedMemory cold = ranker.rank("remove the sync commits", null, NOW, 2)
            .stream()
            .filter(r -> r.memoryId().equals("commit"))
            .findFirst()
            .orElseThrow();
        assertThat(cold.score()).isCloseTo(observation.score(), within(1e-12));
    }

    @Test
    void anObservationsWordsLiftItOnlyWhereTheyMatchMostOfTheQuery() {
        HybridRanker ranker = new HybridRanker(List.of(), RankingSettings.defaults());
        // an old observation: recency adds nothing
        MemoryDoc d = doc("o", "observation", NOW.minusYears(10), "");
        for (double lexical : new double[] { 0.0, 0.3, 0.6 }) {
            assertThat(ranker.fuseOnWords(d, lexical, NOW).score())
                .isCloseTo(ranker.fuseWithoutSemantic(d, lexical, NOW).score(), within(1e-9));
        }
        assertThat(ranker.fuseOnWords(d, 0.88, NOW).score()).isLessThan(MatchBand.SUGGESTED_SCORE);
        assertThat(ranker.fuseOnWords(d, 0.9, NOW).score()).isGreaterThanOrEqualTo(MatchBand.SUGGESTED_SCORE);
        assertThat(ranker.fuseOnWords(d, 1.0, NOW).score()).isLessThan(MatchBand.HIGH_SCORE)
            .isCloseTo(0.828, within(1e-3))
            .isGreaterThan(ranker.fuseWithoutSemantic(d, 1.0, NOW).score() + 0.04);
    }

    @Test
    void recencyHalvesEveryHalfLife() {
        assertThat(HybridRanker.recency(NOW.minusDays(60), NOW, 30)).isCloseTo(0.25, within(1e-12));
        assertThat(HybridRanker.recency(NOW.plusDays(1), NOW, 30)).isEqualTo(1.0);
    }

    @Test
    void aClearWinnerIsHigh() {
        HybridRanker ranker = ranker();
        double winner = ranker.fuse(doc("a", "decision", NOW, ""), 0.80, 1.0, NOW).score();
        double runnerUp = ranker.fuse(doc("b", "decision", NOW, ""), 0.55, 0.6, NOW).score();

        assertThat(winner).isGreaterThanOrEqualTo(MatchBand.HIGH_SCORE);
        assertThat(MatchBand.of(List.of(winner, runnerUp))).isEqualTo(MatchBand.HIGH);
    }

    @Test
    void twoCloseMatchesAreNotHigh() {
        HybridRanker ranker = ranker();
        double first = ranker.fuse(doc("a", "decision", NOW, ""), 0.80, 1.0, NOW).score();
        double second = ranker.fuse(doc("b", "decision", NOW, ""), 0.78, 0.95, NOW).score();

        assertThat(first - second).isLessThan(MatchBand.HIGH_GAP);
        assertThat(MatchBand.of(List.of(first, second))).isEqualTo(MatchBand.SUGGESTED);
    }

    @Test
    void aWeakMatchIsNone() {
        HybridRanker ranker = ranker();
        double weak = ranker.fuse(doc("a", "exchange", NOW.minusDays(90), ""), 0.30, 0.2, NOW).score();

        assertThat(weak).isLessThan(MatchBand.SUGGESTED_SCORE);
        assertThat(MatchBand.of(List.of(weak))).isEqualTo(MatchBand.NONE);
        assertThat(MatchBand.of(List.of())).isEqualTo(MatchBand.NONE);
    }

    @Test
    void ranksLexicalAndVectorCandidatesTogether() {
        HybridRanker ranker = ranker(
                doc("pool", "decision", NOW.minusDays(1), "We decided to use a connection pool for Postgres"),
                doc("cache", "decision", NOW.minusDays(1), "We chose Redis as the cache"),
                doc("paris", "exchange", NOW.minusDays(1), "Travel plans for Paris in spring"));

        // the vector store saw "cache" as the nearest; the lexical index finds "pool"
        List<RankedMemory> ranked = ranker.rank("postgres connection pool", Map.of("cache", 0.5, "pool", 0.45), NOW,
                10);

        assertThat(ranked).extracting(RankedMemory::memoryId).containsExactly("pool", "cache");
        assertThat(ranked.get(0).lexical()).isCloseTo(1.0, within(1e-12));
        assertThat(ranked.get(1).lexical()).isZero();
    }

    @Test
    void aLexicalCandidateMissedByTheVectorSearchGetsItsLowestCosine() {
        HybridRanker ranker = ranker(doc("a", "fact", NOW, "alpha beta"), doc("b", "fact", NOW, "gamma"));

        List<RankedMemory> ranked = ranker.rank("alpha", Map.of("b", 0.45), NOW, 10);

        assertThat(ranked).extracting(RankedMemory::memoryId).containsExactly("a", "b");
        assertThat(ranked.get(0).semantic()).isCloseTo(ranked.get(1).semantic(), within(1e-12));
    }

    @Test
    void aQueryNamingAPeriodRanksMemoriesFromOutsideItLower() {
        // NOW is 1 March 2024: the newer memory wins on recency alone, the one from
        // January when January counts
        List<MemoryDoc> docs = List.of(
                doc("jan", "decision", LocalDateTime.of(2024, 1, 10, 9, 0), "We moved invoices to Postgres"),
                doc("feb", "decision", LocalDateTime.of(2024, 2, 20, 9, 0), "We moved invoices to Postgres"));
        Map<String, Double> cosines = Map.of("jan", 0.6, "feb", 0.6);
        String query = "where did we move invoices in January";

        List<RankedMemory> ignoringPeriods = new HybridRanker(docs, SETTINGS.with("outOfPeriod", "1")).rank(query,
                cosines, NOW, 10);
        List<RankedMemory> ranked = new HybridRanker(docs, SETTINGS).rank(query, cosines, NOW, 10);

        assertThat(ignoringPeriods).extracting(RankedMemory::memoryId).containsExactly("feb", "jan");
        assertThat(ranked).extracting(RankedMemory::memoryId).containsExactly("jan", "feb");
        assertThat(ranked.get(0).score()).isCloseTo(ignoringPeriods.get(1).score(), within(1e-12));
        assertThat(ranked.get(1).score()).isCloseTo(ignoringPeriods.get(0).score() * SETTINGS.outOfPeriod(),
                within(1e-12));
    }

}
