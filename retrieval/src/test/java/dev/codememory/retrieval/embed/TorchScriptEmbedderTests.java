package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.Model;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.translate.TranslateException;
import dev.codememory.config.vector.EmbeddingVersion;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PyTorch path offline: a {@link ToyEncoder} is built, initialised and saved in DJL's
 * format by the test, then loaded through the embedder's own Criteria, translator and
 * engine with the real MiniLM tokenizer.
 */
@Tag("model")
class TorchScriptEmbedderTests {

    private static final String MODEL_NAME = "toy-encoder";

    private static final int VOCABULARY = 30_522;

    private static final EmbeddingVersion VERSION = new EmbeddingVersion(MODEL_NAME, 384, "mean", 256);

    @TempDir
    static Path dir;

    private static Path tokenizer;

    private static final String TEXT = "The cat sat on the mat";

    private static TorchScriptEmbedder embedder;

    private static float[] savedModelVector;

    @BeforeAll
    static void saveAndLoadToyModel() throws IOException, TranslateException {
        DjlRuntime.configure(null);
        tokenizer = dir.resolve("tokenizer.json");
        try (InputStream in = TorchScriptEmbedderTests.class.getClassLoader()
            .getResourceAsStream(MiniLmOnnxEmbedder.TOKENIZER_RESOURCE)) {
            Files.copy(in, tokenizer);
        }
        try (Model model = Model.newInstance(MODEL_NAME, "PyTorch")) {
            ToyEncoder block = new ToyEncoder(VOCABULARY, 384);
            model.setBlock(block);
            block.initialize(model.getNDManager(), DataType.FLOAT32, new Shape(1, 8), new Shape(1, 8));
            model.save(dir, MODEL_NAME);
            try (HuggingFaceTokenizer tok = HuggingFaceTokenizer.newInstance(tokenizer);
                    Predictor<String[], float[][]> predictor = model
                        .newPredictor(new MeanPoolingTranslator(tok, false, false))) {
                savedModelVector = predictor.predict(new String[] { TEXT })[0];
            }
        }
        embedder = TorchScriptEmbedder.ofBlock(dir, MODEL_NAME, new ToyEncoder(VOCABULARY, 384), tokenizer, VERSION);
    }

    @AfterAll
    static void closeModel() {
        embedder.close();
    }

    @Test
    void savedTheToyModelInDjlFormat() {
        assertThat(dir.resolve(MODEL_NAME + "-0000.params")).isRegularFile();
    }

    @Test
    void loadsTheSavedParametersIntoTheBlock() {
        // a fresh ToyEncoder has random weights; only the saved .params reproduce the
        // saved model's vector
        assertThat(Vectors.cosine(embedder.embed(TEXT), savedModelVector)).isGreaterThan(0.9999);
    }

    @Test
    void runsOnThePyTorchEngine() {
        assertThat(embedder.engineName()).isEqualTo("PyTorch");
        assertThat(embedder.version()).isEqualTo(VERSION);
    }

    @Test
    void embedsEachTextToAUnitVectorOfTheVersionsDimension() {
        float[][] vectors = embedder.embed(List.of("How do I add rate limiting to the API?", "The cat sat", ""));

        assertThat(vectors).hasDimensions(3, 384);
        for (float[] vector : vectors) {
            assertThat(Vectors.norm(vector)).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void givesTheSameVectorOnEveryCallAndAloneOrInABatch() {
        float[] first = embedder.embed(TEXT);
        float[][] batch = embedder.embed(List.of(Texts.words(300, 0), TEXT));

        assertThat(embedder.embed(TEXT)).containsExactly(first);
        assertThat(Vectors.cosine(batch[1], first)).isGreaterThan(0.9999);
    }

    @Test
    void rejectsAModelWhoseOutputDoesNotMatchTheVersionsDimension() {
        EmbeddingVersion wrong = new EmbeddingVersion(MODEL_NAME, 128, "mean", 256);

        assertThatThrownBy(
                () -> TorchScriptEmbedder.ofBlock(dir, MODEL_NAME, new ToyEncoder(VOCABULARY, 384), tokenizer, wrong))
            .isInstanceOf(EmbeddingException.class)
            .hasMessage("the model " + dir + " produces 384-d vectors but its embedding version says 128");
    }

    @Test
    void failsWithTheLocationWhenTheModelIsMissing() {
        Path missing = dir.resolve("no-such-model");

        assertThatThrownBy(() -> new TorchScriptEmbedder(missing.toString(), tokenizer, VERSION))
            .isInstanceOf(EmbeddingException.class)
            .hasMessage("cannot load the PyTorch model " + missing)
            .hasCauseInstanceOf(ModelNotFoundException.class);
    }

}
