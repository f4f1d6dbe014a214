package dev.codememory.retrieval.ranking;

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
        index.put("a", new float[] { 1, 0, 0 });
        index.put("b", new float[] { 2, 2, 0 }); // not unit: stored normalised
        index.put("c", new float[] { 0, 0, 1 });

        List<VectorHit> hits = index.search(new float[] { 1, 0.1f, 0 }, 2);

        assertThat(hits).extracting(VectorHit::memoryId).containsExactly("a", "b");
        assertThat(hits.get(0).score()).isCloseTo(1 / Math.sqrt(1.01), org.assertj.core.data.Offset.offset(1e-3));
        assertThat(hits.get(1).score()).isCloseTo(1.1 / Math.sqrt(2) / Math.sqrt(1.01),
                org.assertj.core.data.Offset.offset(1e-3));
        assertThat(index.size()).isEqualTo(3);
    }

    @Test
    void removedAndReplacedVectorsAreNotReturned() {
        VectorIndex index = new VectorIndex(3);
        index.put("a", new float[] { 1, 0, 0 });
        index.put("b", new float[] { 0, 1, 0 });
        index.put("a", new float[] { 0, 0, 1 });
        index.remove(List.of("b"));

        assertThat(index.search(new float[] { 1, 0, 0 }, 5)).extracting(VectorHit::memoryId).containsExactly("a");
        assertThat(index.search(new float[] { 1, 0, 0 }, 5).get(0).score()).isEqualTo(0.0);
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
    void quantizedCosinesStayWithinAHundredthOfTheFloatOnes() {
        Random random = new Random(11);
        int dim = 384;
        VectorIndex index = new VectorIndex(dim);
        float[][] stored = new float[500][];
        for (int i = 0; i < stored.length; i++) {
            stored[i] = VectorIndex.unit(randomVector(random, dim));
            index.put("m" + i, stored[i]);
        }
        double worst = 0;
        double total = 0;
        int pairs = 0;
        for (int q = 0; q < 20; q++) {
            float[] query = VectorIndex.unit(randomVector(random, dim));
            for (VectorHit hit : index.exactSearch(query, stored.length)) {
                float[] v = stored[Integer.parseInt(hit.memoryId().substring(1))];
                double exact = 0;
                for (int i = 0; i < dim; i++) {
                    exact += query[i] * v[i];
                }
                worst = Math.max(worst, Math.abs(hit.score() - exact));
                total += Math.abs(hit.score() - exact);
                pairs++;
            }
        }
        assertThat(pairs).isEqualTo(20 * stored.length);
        assertThat(worst).isLessThan(VectorIndex.MAX_QUANTIZATION_ERROR);
        assertThat(total / pairs).isLessThan(0.002);
    }

    @Test
    void quantizesToSignedBytesWithTheLargestComponentAt127() {
        byte[] codes = new byte[4];

        float scale = VectorIndex.quantize(new float[] { 0.5f, -0.3f, 0.1f, 0 }, codes);

        assertThat(codes).containsExactly(127, -76, 25, 0);
        assertThat(scale).isEqualTo(0.5f / 127);
        assertThat(VectorIndex.quantize(new float[4], codes)).isZero();
        assertThat(codes).containsOnly(0);
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

    /** Components like a sentence model's: mostly small, a few large. */
    private static float[] randomVector(Random random, int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) (random.nextGaussian() * (random.nextInt(20) == 0 ? 4 : 1));
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

    @Test
    void searchBeamGrowsWithTheGraphPastAQuarterMillionUpToItsCap() {
        assertThat(VectorIndex.searchBeam(20_000)).isEqualTo(800);
        assertThat(VectorIndex.searchBeam(250_000)).isEqualTo(800);
        assertThat(VectorIndex.searchBeam(500_000)).isEqualTo(1_600);
        assertThat(VectorIndex.searchBeam(1_000_000)).isEqualTo(3_200);
        assertThat(VectorIndex.searchBeam(3_000_000)).isEqualTo(3_200);
    }

}
