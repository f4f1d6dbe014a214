package dev.codememory.retrieval.embed;

import ai.djl.MalformedModelException;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.nn.Block;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import dev.codememory.config.vector.EmbeddingVersion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sentence-embedding model in TorchScript on DJL's PyTorch engine: a model directory
 * ({@code model.pt}, optionally {@code serving.properties}) given as a local path,
 * {@code file:} or {@code djl://} URL, plus its Hugging Face {@code tokenizer.json}. The
 * model's first output must be the token states {@code [batch, tokens, dimension]}; they
 * are mean-pooled over the attention mask and L2-normalised in Java. The tokenizer pads
 * to the longest text in a batch and truncates at {@code version.maxTokens()}.
 *
 * <p>
 * Offline, nothing is downloaded: the PyTorch natives come from
 * {@code pytorch-native-cpu} on the classpath and a {@code djl://} model must already be
 * in DJL's cache. At load the model embeds one probe text and must produce
 * {@code version.dimension()} components.
 *
 * <p>
 * Thread-safe: each {@link #embed(List)} call uses its own predictor.
 */
public final class TorchScriptEmbedder implements Embedder {

    private static final Logger log = LoggerFactory.getLogger(TorchScriptEmbedder.class);

    private final EmbeddingVersion version;

    private final int batchSize;

    private final HuggingFaceTokenizer tokenizer;

    private final MeanPoolingTranslator translator;

    private final ZooModel<String[], float[][]> model;

    /**
     * A model taking {@code input_ids} and {@code attention_mask}; DJL's cache as
     * configured in the environment.
     */
    public TorchScriptEmbedder(String modelUrl, Path tokenizerJson, EmbeddingVersion version) {
        this(modelUrl, tokenizerJson, version, false, null);
    }

    /**
     * @param modelUrl a local path, {@code file:} or {@code djl://} URL of the model
     * directory
     * @param tokenTypeIds whether the model takes a third input, {@code token_type_ids}
     * @param djlCacheDir where DJL unpacks the PyTorch natives (~430 MB); a process-wide
     * setting, null for the default
     */
    public TorchScriptEmbedder(String modelUrl, Path tokenizerJson, EmbeddingVersion version, boolean tokenTypeIds,
            Path djlCacheDir) {
        this(criteria -> criteria.optModelUrls(toUrl(modelUrl)), modelUrl, tokenizerJson, version, tokenTypeIds,
                djlCacheDir);
    }

    /**
     * A model built from DJL blocks and saved in DJL's format ({@code <name>-0000.params}
     * in {@code modelDir}): the same loader, translator and engine as a TorchScript
     * model, with the block standing in for {@code model.pt}. For tests, since no
     * TorchScript file can be produced offline.
     */
    static TorchScriptEmbedder ofBlock(Path modelDir, String modelName, Block block, Path tokenizerJson,
            EmbeddingVersion version) {
        return new TorchScriptEmbedder(
                criteria -> criteria.optModelPath(modelDir).optModelName(modelName).optBlock(block),
                modelDir.toString(), tokenizerJson, version, false, null);
    }

    private TorchScriptEmbedder(UnaryOperator<Criteria.Builder<String[], float[][]>> source, String location,
            Path tokenizerJson, EmbeddingVersion version, boolean tokenTypeIds, Path djlCacheDir) {
        this.version = Objects.requireNonNull(version, "version");
        this.batchSize = MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE;
        DjlRuntime.configure(djlCacheDir);
        long start = System.nanoTime();
        this.tokenizer = loadTokenizer(tokenizerJson, version.maxTokens());
        this.translator = new MeanPoolingTranslator(tokenizer, tokenTypeIds, false);
        try {
            this.model = source
                .apply(Criteria.builder()
                    .setTypes(String[].class, float[][].class)
                    .optEngine("PyTorch")
                    .optTranslator(translator))
                .build()
                .loadModel();
        }
        catch (IOException | ModelNotFoundException | MalformedModelException | RuntimeException e) {
            tokenizer.close();
            throw new EmbeddingException("cannot load the PyTorch model " + location, e);
        }
        try {
            requireDimension(location);
        }
        catch (RuntimeException e) {
            close();
            throw e;
        }
        log.info("Loaded embedding model {} in {} ms", version.id(), (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public EmbeddingVersion version() {
        return version;
    }

    @Override
    public float[][] embed(List<String> texts) {
        try (Predictor<String[], float[][]> predictor = model.newPredictor()) {
            return Batches.embed(texts, batchSize, version.model(), predictor::predict);
        }
    }

    /** The engine the model runs on, as DJL names it. */
    String engineName() {
        return model.getNDManager().getEngine().getEngineName();
    }

    @Override
    public void close() {
        model.close();
        tokenizer.close();
    }

    private void requireDimension(String location) {
        int dimension = embed("dimension probe").length;
        if (dimension != version.dimension()) {
            throw new EmbeddingException("the model " + location + " produces " + dimension
                    + "-d vectors but its embedding version says " + version.dimension());
        }
    }

    private static HuggingFaceTokenizer loadTokenizer(Path tokenizerJson, int maxTokens) {
        try {
            return HuggingFaceTokenizer.newInstance(tokenizerJson, Map.of("padding", "longest", "truncation", "true",
                    "maxLength", String.valueOf(maxTokens), "modelMaxLength", String.valueOf(maxTokens)));
        }
        catch (IOException e) {
            throw new EmbeddingException("cannot read the tokenizer " + tokenizerJson, e);
        }
    }

    private static String toUrl(String modelUrl) {
        Objects.requireNonNull(modelUrl, "modelUrl");
        // a scheme of two or more letters (djl:, file:, jar:, https:); a Windows drive
        // letter is a path
        return modelUrl.matches("[a-zA-Z][a-zA-Z0-9+.-]+:.*") ? modelUrl
                : Path.of(modelUrl).toAbsolutePath().toUri().toString();
    }

}
