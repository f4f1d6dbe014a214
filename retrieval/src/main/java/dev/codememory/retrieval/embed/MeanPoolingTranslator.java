package dev.codememory.retrieval.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslatorContext;

import java.util.Arrays;

/**
 * A whole batch of texts in, one unit-length vector per text out: tokenises with padding
 * to the longest text, feeds {@code input_ids}, {@code attention_mask} and (optionally)
 * {@code token_type_ids} as INT64 tensors, and mean-pools the first output
 * ({@code last_hidden_state}) in Java. Stateless apart from the tokenizer, which is
 * thread-safe, so one instance serves every predictor.
 */
final class MeanPoolingTranslator implements NoBatchifyTranslator<String[], float[][]> {

    private static final String BATCH = "tokenBatch";

    private static final String HIDDEN_STATE = "last_hidden_state";

    private final HuggingFaceTokenizer tokenizer;

    private final boolean tokenTypeIds;

    private final boolean namedInputs;

    /**
     * @param tokenTypeIds whether the model takes a third input, {@code token_type_ids}
     * @param namedInputs whether to name the input tensors (ONNX Runtime matches inputs
     * by name; TorchScript reads names as structure hints, so there they stay positional)
     */
    MeanPoolingTranslator(HuggingFaceTokenizer tokenizer, boolean tokenTypeIds, boolean namedInputs) {
        this.tokenizer = tokenizer;
        this.tokenTypeIds = tokenTypeIds;
        this.namedInputs = namedInputs;
    }

    @Override
    public NDList processInput(TranslatorContext ctx, String[] texts) {
        TokenBatch batch = TokenBatch.encode(tokenizer, Arrays.asList(texts));
        ctx.setAttachment(BATCH, batch);
        NDManager manager = ctx.getNDManager();
        Shape shape = new Shape(batch.shape());
        NDList inputs = new NDList(input(manager, batch.inputIds(), shape, "input_ids"),
                input(manager, batch.attentionMask(), shape, "attention_mask"));
        if (tokenTypeIds) {
            inputs.add(input(manager, batch.tokenTypeIds(), shape, "token_type_ids"));
        }
        return inputs;
    }

    @Override
    public float[][] processOutput(TranslatorContext ctx, NDList outputs) {
        TokenBatch batch = (TokenBatch) ctx.getAttachment(BATCH);
        NDArray hidden = outputs.get(HIDDEN_STATE);
        if (hidden == null) {
            hidden = outputs.head();
        }
        Shape shape = hidden.getShape();
        if (shape.dimension() != 3 || shape.get(0) != batch.size() || shape.get(1) != batch.length()) {
            throw new EmbeddingException("expected the model's first output to be [batch, tokens, dimension] = ["
                    + batch.size() + ", " + batch.length() + ", d], was " + shape);
        }
        return MeanPooling.pool(hidden.toFloatArray(), batch, (int) shape.get(2));
    }

    private NDArray input(NDManager manager, long[] values, Shape shape, String name) {
        NDArray array = manager.create(values, shape);
        if (namedInputs) {
            array.setName(name);
        }
        return array;
    }

}
