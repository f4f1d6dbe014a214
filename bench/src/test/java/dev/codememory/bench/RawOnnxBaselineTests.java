package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The product's embedder against the model on raw ONNX Runtime, written without the
 * product's embedder code ({@link RawOnnxBaseline}); both loaded once for the class.
 */
@Tag("model")
class RawOnnxBaselineTests {

    private static final String QUERY = "How do I add rate limiting to the API?";

    private static final String RELATED = "We implemented rate limiting middleware for the /users endpoint";

    private static final String UNRELATED = "The cat sat on the mat";

    private static MiniLmOnnxEmbedder product;

    private static RawOnnxBaseline raw;

    @BeforeAll
    static void loadModels() {
        // the product's embedder first: it sets DJL up and lets its engine create ONNX
        // Runtime's environment
        product = new MiniLmOnnxEmbedder(Path.of("target", "djl-cache"), MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE);
        raw = new RawOnnxBaseline(MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE, MiniLmOnnxEmbedder.MAX_TOKENS, 0);
    }

    @AfterAll
    static void closeModels() {
        raw.close();
        product.close();
    }

    @Test
    void productEmbedderGivesTheSameVectorsAsRawOnnxRuntime() {
        List<String> texts = List.of(QUERY, RELATED, UNRELATED, "memory ".repeat(400).strip());
        float[][] pipeline = product.embed(texts);
        float[][] baseline = raw.embed(texts);

        assertThat(baseline).hasDimensions(4, 384);
        for (int i = 0; i < texts.size(); i++) {
            assertThat(cosine(baseline[i], pipeline[i])).as("text %d", i).isGreaterThan(0.9999);
        }
    }

    @Test
    void givesEachTextItsOwnVectorWhateverTheOrderOfTheTexts() {
        // nine texts of distinct lengths: two batches, cut after sorting by length, the
        // same batches in either order
        List<String> texts = List.of("memory ".repeat(60).strip(), UNRELATED, RELATED, QUERY, "a note", "b", "c d",
                "the memory system stores every decision", "e f g");
        List<String> reversed = new java.util.ArrayList<>(texts);
        java.util.Collections.reverse(reversed);

        float[][] forward = raw.embed(texts);
        float[][] backward = raw.embed(reversed);

        for (int i = 0; i < texts.size(); i++) {
            assertThat(cosine(forward[i], backward[texts.size() - 1 - i])).as("text %d", i).isGreaterThan(0.9999);
        }
        assertThat(cosine(forward[1], forward[2])).isLessThan(0.9);
    }

    @Test
    void countsTokensAfterTruncation() {
        assertThat(raw.tokenCounts(List.of(UNRELATED, "memory ".repeat(2_000).strip()))).containsExactly(8,
                MiniLmOnnxEmbedder.MAX_TOKENS);
    }

    @Test
    void embedsAnEmptyListToNoVectors() {
        assertThat(raw.embed(List.of())).isEmpty();
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

}
