package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Bm25IndexTests {

    private static Bm25Index corpus() {
        Bm25Index index = new Bm25Index();
        index.add("d1", QueryTokenizer.tokenize("The cat sat on the mat"));
        index.add("d2", QueryTokenizer.tokenize("Dogs chase cats in the park"));
        index.add("d3", QueryTokenizer.tokenize("A cat and a cat and another cat"));
        index.add("d4", QueryTokenizer.tokenize("Python code review"));
        return index;
    }

    private static List<String> ranking(Bm25Index index, double[] scores) {
        List<Integer> docs = new ArrayList<>();
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] > 0) {
                docs.add(i);
            }
        }
        docs.sort((x, y) -> Double.compare(scores[y], scores[x]));
        return docs.stream().map(index::id).toList();
    }

    @Test
    void ranksByTermFrequencyThenDocumentLength() {
        Bm25Index index = corpus();

        assertThat(ranking(index, index.score(QueryTokenizer.tokenize("cats?")))).containsExactly("d3", "d1", "d2");
    }

    @Test
    void holdsTheTermsOfLiveDocumentsOnly() {
        Bm25Index index = corpus();

        assertThat(index.holds("python")).isTrue();
        assertThat(index.holds("kubernet")).isFalse();
        index.remove(List.of(3));
        assertThat(index.holds("python")).isFalse();
        assertThat(index.holds("cat")).isTrue();
    }

    @Test
    void scoresMatchTheOkapiFormula() {
        Bm25Index index = corpus();
        double[] scores = index.score(List.of("cat"));

        // N = 4, df(cat) = 3, lengths 3, 4, 4, 3 → avgdl 3.5
        double idf = Math.log(1 + (4 - 3 + 0.5) / (3 + 0.5));
        double d1 = idf * 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 3 / 3.5));
        double d3 = idf * 3 * 2.2 / (3 + 1.2 * (0.25 + 0.75 * 4 / 3.5));
        assertThat(scores[0]).isCloseTo(d1, within(1e-12));
        assertThat(scores[2]).isCloseTo(d3, within(1e-12));
        assertThat(scores[3]).isZero();
    }

    @Test
    void rareTermsOutweighCommonOnes() {
        Bm25Index index = corpus();

        assertThat(ranking(index, index.score(QueryTokenizer.tokenize("cat in the park")))).containsExactly("d2", "d3",
                "d1");
        assertThat(ranking(index, index.score(QueryTokenizer.tokenize("code review for the mat"))))
            .containsExactly("d4", "d1");
    }

    @Test
    void repeatedQueryTermsCountOnce() {
        Bm25Index index = corpus();

        assertThat(index.score(List.of("cat", "cat"))).containsExactly(index.score(List.of("cat")));
    }

    @Test
    void coverageIsTheShareOfQueryIdfFound() {
        Bm25Index index = corpus();
        double[] coverage = index.coverage(List.of("cat", "park"));

        double cat = index.idf("cat");
        double park = index.idf("park");
        assertThat(coverage[1]).isCloseTo(1.0, within(1e-12));
        assertThat(coverage[0]).isCloseTo(cat / (cat + park), within(1e-12));
        assertThat(coverage[3]).isZero();
    }

    @Test
    void emptyIndexScoresNothing() {
        assertThat(new Bm25Index().score(List.of("cat"))).isEmpty();
    }

    @Test
    void coverageOfAnOutsideTextEqualsThatOfTheSameTextIndexed() {
        Bm25Index index = new Bm25Index();
        index.add("a", List.of("postgres", "invoice", "lock"));
        index.add("b", List.of("sqlite", "invoice"));
        index.add("c", List.of("teal", "button"));
        List<String> query = List.of("postgres", "invoice", "retry");

        assertThat(index.coverage(query, java.util.Set.of("postgres", "invoice", "lock")))
            .isEqualTo(index.coverage(query)[0])
            .isStrictlyBetween(0.0, 1.0);
        assertThat(index.coverage(query, java.util.Set.of("teal"))).isZero();
        assertThat(index.coverage(List.of(), java.util.Set.of("teal"))).isZero();
    }

    @Test
    void removingDocumentsScoresAsAnIndexThatNeverHadThem() {
        Bm25Index index = corpus();
        index.remove(List.of(0, 2, 2, 99));
        Bm25Index without = new Bm25Index();
        without.add("d2", QueryTokenizer.tokenize("Dogs chase cats in the park"));
        without.add("d4", QueryTokenizer.tokenize("Python code review"));

        List<String> query = QueryTokenizer.tokenize("cat park review");
        double[] scores = index.score(query);
        double[] expected = without.score(query);
        assertThat(index.liveSize()).isEqualTo(2);
        assertThat(index.size()).isEqualTo(4);
        assertThat(scores[0]).isZero();
        assertThat(scores[2]).isZero();
        assertThat(scores[1]).isEqualTo(expected[0]).isPositive();
        assertThat(scores[3]).isEqualTo(expected[1]).isPositive();
        assertThat(index.idf("cat")).isEqualTo(without.idf("cat"));
    }

    @Test
    void matchesAreTheDocumentsHoldingAQueryTermWithTheirScoresAndCoverage() {
        Bm25Index index = corpus();
        List<String> query = QueryTokenizer.tokenize("cat park");
        PositionSums sums = PositionSums.take(index.size());

        int n = index.match(query, sums);

        assertThat(java.util.Arrays.copyOf(sums.touched, n)).containsExactlyInAnyOrder(0, 1, 2);
        for (int doc = 0; doc < index.size(); doc++) {
            assertThat(sums.first[doc]).isEqualTo(index.score(query)[doc]);
            assertThat(sums.second[doc]).isEqualTo(index.coverage(query)[doc]);
        }
        sums.give(n);
        assertThat(sums.first).containsOnly(0.0);
        assertThat(sums.second).containsOnly(0.0);
        assertThat(index.match(List.of("zebra"), PositionSums.take(index.size()))).isZero();
    }

}
