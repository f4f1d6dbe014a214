package dev.codememory.processors.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.codememory.config.vector.VectorHit;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VectorIndexTests {

    private static final int DIM = 16;

    @Test
    void exactSearchRanksByCosineBestFirst() {
        VectorIndex index = new VectorIndex(3);
        index.put("a", new float[] {1, 0, 0});
        index.put("b", new float[] {2, 2, 0}); // not unit: stored normalised
        index.put("c", new float[] {0, 0, 1});

        List<VectorHit> hits = index.search(new float[] {1, 0.1f, 0}, 2);

        assertThat(hits).extracting(VectorHit::memoryId).containsExactly("a", "b");
        assertThat(hits.get(0).score()).isCloseTo(1 / Math.sqrt(1.01), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(hits.get(1).score()).isCloseTo(1.1 / Math.sqrt(2) / Math.sqrt(1.01),
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(index.size()).isEqualTo(3);
    }

    @Test
    void removedAndReplacedVectorsAreNotReturned() {
        VectorIndex index = new VectorIndex(3);
        index.put("a", new float[] {1, 0, 0});
        index.put("b", new float[] {0, 1, 0});
        index.put("a", new float[] {0, 0, 1});
        index.remove(List.of("b"));

        assertThat(index.search(new float[] {1, 0, 0}, 5)).extracting(VectorHit::memoryId).containsExactly("a");
        assertThat(index.search(new float[] {1, 0, 0}, 5).get(0).score()).isEqualTo(0.0);
        assertThat(index.size()).isEqualTo(1);
        assertThat(index.contains("b")).isFalse();
    }

    @Test
    void graphSearchFindsWhatExactSearchFinds() {
        Random random = new Random(7);
        float[][] centroids = new float[20][];
        for (int c = 0; c < centroids.length; c++) {
            centroids[c] = gaussian(random, 1);
        }
        VectorIndex index = new VectorIndex(DIM, 100);
        for (int i = 0; i < 3_000; i++) {
            index.put("m" + i, around(centroids[random.nextInt(centroids.length)], random));
        }
        assertThat(index.needsGraph()).isTrue();
        index.buildGraph();
        index.put("late", centroids[0]); // added after the build: goes into the graph
        index.remove(List.of("m0"));
        assertThat(index.hasGraph()).isTrue();

        int found = 0;
        int queries = 100;
        for (int q = 0; q < queries; q++) {
            float[] query = around(centroids[random.nextInt(centroids.length)], random);
            Set<String> exact = new HashSet<>();
            index.exactSearch(query, 10).forEach(h -> exact.add(h.memoryId()));
            List<VectorHit> approximate = index.search(query, 10);
            assertThat(approximate).hasSize(10);
            assertThat(approximate).extracting(VectorHit::memoryId).doesNotContain("m0");
            found += (int) approximate.stream().filter(h -> exact.contains(h.memoryId())).count();
        }
        assertThat(found / (10.0 * queries)).isGreaterThanOrEqualTo(0.95);
        assertThat(index.search(centroids[0], 1)).extracting(VectorHit::memoryId).containsExactly("late");
    }

    @Test
    void refusesAVectorOfTheWrongDimension() {
        VectorIndex index = new VectorIndex(3);

        assertThatIllegalArgumentException().isThrownBy(() -> index.put("a", new float[2]))
                .withMessage("vector of a has 2 dimensions, the index 3");
        assertThatIllegalArgumentException().isThrownBy(() -> index.search(new float[2], 1))
                .withMessage("query has 2 dimensions, the index 3");
    }

    private static float[] around(float[] centroid, Random random) {
        float[] noise = gaussian(random, 0.3);
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = centroid[i] + noise[i];
        }
        return v;
    }

    private static float[] gaussian(Random random, double sigma) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) (random.nextGaussian() * sigma);
        }
        return v;
    }
}
