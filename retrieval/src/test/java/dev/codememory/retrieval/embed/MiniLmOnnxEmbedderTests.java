package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.codememory.config.vector.EmbeddingVersion;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real all-MiniLM-L6-v2 on ONNX Runtime, loaded once for the class (1-2 s). */
@Tag("model")
class MiniLmOnnxEmbedderTests {

    private static final String QUERY = "How do I add rate limiting to the API?";

    private static final String RELATED = "We implemented rate limiting middleware for the /users endpoint";

    private static final String UNRELATED = "The cat sat on the mat";

    private static MiniLmOnnxEmbedder embedder;

    @BeforeAll
    static void loadModel() {
        embedder = new MiniLmOnnxEmbedder();
    }

    @AfterAll
    static void closeModel() {
        embedder.close();
    }

    @Test
    void closingWhileAnotherThreadEmbedsWaitsForItsVectorsThenRefusesMore() throws Exception {
        MiniLmOnnxEmbedder own = new MiniLmOnnxEmbedder();
        List<String> texts = java.util.Collections.nCopies(256, RELATED + " and the sessions that repeat it");
        java.util.concurrent.CompletableFuture<float[][]> running = java.util.concurrent.CompletableFuture
            .supplyAsync(() -> own.embed(texts));
        while (!running.isDone() && own.inUseByOthers() == 0) {
            Thread.onSpinWait();
        }

        own.close();

        assertThat(running.get()).hasNumberOfRows(256);
        assertThat(running.get()[255]).hasSize(384);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> own.embed(List.of(RELATED)))
            .isInstanceOf(EmbeddingException.class)
            .hasMessageContaining("closed");
    }

    @Test
    void keepsAnOwnerOnlyUnpackedCopyOfTheModelAndReplacesOneThatFailsItsChecksum(@TempDir Path cache)
            throws Exception {
        Path unpacked = cache.resolve("models/all-minilm-l6-v2-q-afdb6f1a0e45.onnx");

        assertThat(MiniLmOnnxEmbedder.verifiedModelFile(cache)).isEqualTo(unpacked);

        assertThat(unpacked).isRegularFile();
        assertThat(Files.getPosixFilePermissions(unpacked)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(unpacked.getParent()))
            .isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(ModelChecksum.sha256(unpacked)).isEqualTo(MiniLmOnnxEmbedder.MODEL_SHA256);
        java.nio.file.attribute.FileTime written = Files.getLastModifiedTime(unpacked);
        assertThat(MiniLmOnnxEmbedder.verifiedModelFile(cache)).isEqualTo(unpacked);
        assertThat(Files.getLastModifiedTime(unpacked)).isEqualTo(written); // an intact
                                                                            // copy is not
                                                                            // rewritten

        Files.write(unpacked, new byte[] { 1, 2, 3 });
        assertThat(MiniLmOnnxEmbedder.verifiedModelFile(cache)).isEqualTo(unpacked);
        assertThat(ModelChecksum.sha256(unpacked)).isEqualTo(MiniLmOnnxEmbedder.MODEL_SHA256);
        try (java.util.stream.Stream<Path> files = Files.list(unpacked.getParent())) {
            assertThat(files).containsExactly(unpacked); // no temporary file left behind
        }
        assertThat(MiniLmOnnxEmbedder.verifiedModelFile(null)).isNull();
    }

    @Test
    void describesItselfAsMiniLmWithMeanPoolingAnd128Tokens() {
        assertThat(embedder.version()).isEqualTo(new EmbeddingVersion("all-minilm-l6-v2-q", 384, "mean", 128));
        assertThat(embedder.version().id()).isEqualTo("all_minilm_l6_v2_q_384_mean_128");
    }

    @Test
    void embedsEachTextToA384DimensionalUnitVector() {
        float[][] vectors = embedder.embed(List.of(QUERY, RELATED, UNRELATED, ""));

        assertThat(vectors).hasDimensions(4, 384);
        for (float[] vector : vectors) {
            assertThat(Vectors.norm(vector)).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void givesTheSameVectorOnEveryCall() {
        float[] first = embedder.embed(QUERY);
        float[] second = embedder.embed(QUERY);

        assertThat(second).containsExactly(first);
    }

    /**
     * How close a text's vector stays when its batch changes: the int8 model quantizes
     * each batch's activations with one scale, so a vector moves a little with its batch
     * companions (measured: cosine 0.990–0.994 to the text embedded alone; unrelated
     * texts are below 0.2).
     */
    private static final double SAME_TEXT_OTHER_BATCH = 0.98;

    @Test
    void givesNearlyTheSameVectorAloneAndInABatch() {
        float[][] batch = embedder.embed(List.of(UNRELATED, QUERY, RELATED));

        assertThat(Vectors.cosine(batch[0], embedder.embed(UNRELATED))).isGreaterThan(SAME_TEXT_OTHER_BATCH);
        assertThat(Vectors.cosine(batch[1], embedder.embed(QUERY))).isGreaterThan(SAME_TEXT_OTHER_BATCH);
        assertThat(Vectors.cosine(batch[2], embedder.embed(RELATED))).isGreaterThan(SAME_TEXT_OTHER_BATCH);
        assertThat(Vectors.cosine(batch[0], embedder.embed(QUERY))).isLessThan(0.5);
    }

    @Test
    void ranksTheRelatedSentenceAboveTheUnrelatedOneForAQuestion() {
        float[][] vectors = embedder.embed(List.of(QUERY, RELATED, UNRELATED));
        double related = Vectors.cosine(vectors[0], vectors[1]);
        double unrelated = Vectors.cosine(vectors[0], vectors[2]);

        assertThat(related).isGreaterThan(unrelated);
        assertThat(related).isGreaterThan(0.4);
        assertThat(unrelated).isLessThan(0.2);
    }

    @Test
    void padsEachBatchToItsLongestTextAndTruncatesAt128Tokens() {
        TokenBatch alone = embedder.tokenize(List.of(UNRELATED));
        TokenBatch mixed = embedder.tokenize(List.of(UNRELATED, Texts.words(2_000, 0)));

        // [CLS] the cat sat on the mat [SEP]
        assertThat(alone.size()).isEqualTo(1);
        assertThat(alone.length()).isEqualTo(8);
        assertThat(mixed.size()).isEqualTo(2);
        assertThat(mixed.length()).isEqualTo(128);
        assertThat(Arrays.stream(mixed.attentionMask(), 0, 128).sum()).isEqualTo(8);
        assertThat(Arrays.stream(mixed.attentionMask(), 128, 256).sum()).isEqualTo(128);
        assertThat(embedder.tokenCounts(List.of(UNRELATED, Texts.words(2_000, 0)))).containsExactly(8, 128);
        assertThat(Arrays.copyOfRange(mixed.inputIds(), 0, 8)).containsExactly(alone.inputIds());
    }

    @Test
    void embedsATextFarLongerThanTheTokenLimit() {
        float[] vector = embedder.embed(Texts.words(2_000, 0));

        assertThat(vector).hasSize(384);
        assertThat(Vectors.norm(vector)).isCloseTo(1.0, within(1e-5));
    }

    @Test
    void truncatesAt128TokensByDefault() {
        // 100 words = 102 tokens with [CLS] and [SEP]: within 128
        String base = Texts.words(100, 0);
        String differentTail = Texts.words(80, 0) + " " + Texts.words(20, 5);
        // 150 words are cut at 128 tokens, so 1,700 more words change nothing
        String cut = Texts.words(150, 0);
        String longer = Texts.words(150, 0) + " " + Texts.words(1_700, 3);

        float[][] vectors = embedder.embed(List.of(base, differentTail, cut, longer));

        assertThat(Vectors.cosine(vectors[0], vectors[1])).isLessThan(0.999);
        assertThat(Vectors.cosine(vectors[2], vectors[3])).isGreaterThan(0.9999);
    }

    @Test
    void truncatesAt256TokensWhenToldNotAtTheTokenizerFiles128() {
        // 200 words = 202 tokens with [CLS] and [SEP]: past 128, within 256
        String base = Texts.words(200, 0);
        String differentTail = Texts.words(160, 0) + " " + Texts.words(40, 5);
        // 300 words are cut at 256 tokens, so 1,700 more words change nothing
        String cut = Texts.words(300, 0);
        String longer = Texts.words(300, 0) + " " + Texts.words(1_700, 3);

        try (MiniLmOnnxEmbedder at256 = new MiniLmOnnxEmbedder(null, 8, 256, 1)) {
            float[][] vectors = at256.embed(List.of(base, differentTail, cut, longer));

            assertThat(at256.version().id()).isEqualTo("all_minilm_l6_v2_q_384_mean_256");
            assertThat(at256.tokenCounts(List.of(base, longer))).containsExactly(202, 256);
            assertThat(Vectors.cosine(vectors[0], vectors[1])).isLessThan(0.999);
            assertThat(Vectors.cosine(vectors[2], vectors[3])).isGreaterThan(0.9999);
        }
    }

    @Test
    void padsToTheLongestTextWithoutChangingTheShortTextsVectorMoreThanItsBatchDoes() {
        float[][] batch = embedder.embed(List.of(UNRELATED, Texts.words(1_000, 0)));

        assertThat(Vectors.cosine(batch[0], embedder.embed(UNRELATED))).isGreaterThan(SAME_TEXT_OTHER_BATCH);
    }

    @Test
    void splitsLongListsIntoBatchesAndKeepsTheOrder() {
        List<String> texts = Texts.corpus(5, 20);
        float[][] expected = embedder.embed(texts);

        try (MiniLmOnnxEmbedder pairs = new MiniLmOnnxEmbedder(djlCacheDir(), 2)) {
            float[][] vectors = pairs.embed(texts);

            assertThat(vectors).hasDimensions(5, 384);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(Vectors.cosine(vectors[i], expected[i])).isGreaterThan(SAME_TEXT_OTHER_BATCH);
            }
        }
    }

    @Test
    void runsOnOnnxRuntimeAloneWithoutPullingInPyTorchForItsInputs() {
        embedder.embed(QUERY);

        // with PyTorch as ONNX Runtime's "alternative", every input array was created in
        // libtorch and copied over
        assertThat(ai.djl.engine.Engine.getEngine("OnnxRuntime").getAlternativeEngine()).isNull();
    }

    @Test
    void embedsAnEmptyListToNoVectors() {
        assertThat(embedder.embed(List.of())).isEmpty();
    }

    private static Path djlCacheDir() {
        return Path.of(System.getProperty(DjlRuntime.CACHE_DIR, "target/djl-cache"));
    }

}
