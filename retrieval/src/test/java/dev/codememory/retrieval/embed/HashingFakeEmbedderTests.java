package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.codememory.config.vector.EmbeddingVersion;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class HashingFakeEmbedderTests {

    private final HashingFakeEmbedder embedder = new HashingFakeEmbedder();

    @Test
    void hasTheRealModelsDimensionAndTokenLimitUnderItsOwnName() {
        assertThat(embedder.version()).isEqualTo(new EmbeddingVersion("hashing-fake", 384, "hash", 128));
        assertThat(embedder.version().id()).isEqualTo("hashing_fake_384_hash_128");
        assertThat(new HashingFakeEmbedder(8).version().dimension()).isEqualTo(8);
    }

    @Test
    void givesUnitLengthVectorsOfTheConfiguredDimension() {
        float[][] vectors = embedder.embed(List.of("", "a", "How do I add rate limiting to the API?"));
        float[] small = new HashingFakeEmbedder(8).embed("a");

        assertThat(vectors).hasDimensions(3, 384);
        for (float[] vector : vectors) {
            assertThat(Vectors.norm(vector)).isCloseTo(1.0, within(1e-6));
        }
        assertThat(small).hasSize(8);
        assertThat(Vectors.norm(small)).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void givesIdenticalVectorsForIdenticalTextsAcrossCallsAndInstances() {
        float[] alone = embedder.embed("The cat sat on the mat");
        float[][] batch = new HashingFakeEmbedder().embed(List.of("x", "The cat sat on the mat"));

        assertThat(batch[1]).containsExactly(alone);
        assertThat(embedder.embed("The cat sat on the mat")).containsExactly(alone);
    }

    @Test
    void givesDifferentVectorsForDifferentTexts() {
        float[][] vectors = embedder.embed(List.of("The cat sat on the mat", "The cat sat on the mat."));

        assertThat(Arrays.equals(vectors[0], vectors[1])).isFalse();
        assertThat(Vectors.cosine(vectors[0], vectors[1])).isLessThan(0.5);
    }

    @Test
    void keepsItsVectorsStableAcrossReleases() {
        float[] vector = new HashingFakeEmbedder(4).embed("hello");

        assertThat(vector).containsExactly(GOLDEN_HELLO_4D);
    }

    @Test
    void embedsAnEmptyListToNoVectorsAndRejectsNullTexts() {
        assertThat(embedder.embed(List.of())).isEmpty();
        assertThatThrownBy(() -> embedder.embed(Arrays.asList("a", null))).isInstanceOf(NullPointerException.class)
            .hasMessage("texts contains null");
    }

    private static final float[] GOLDEN_HELLO_4D = { -0.48494613f, -0.4946379f, 0.3578982f, 0.6261545f };

}
