package dev.codememory.bench;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The product's embedding model on raw ONNX Runtime, written here without the product's
 * embedder code: the same model and {@code tokenizer.json} (the classpath resources
 * {@link MiniLmOnnxEmbedder} loads, its SHA-256 checked), the same session options, texts
 * sorted by length and cut into batches, each padded to its longest text, then
 * sentence-transformers' mean pooling and L2 normalisation. The baseline the embedding
 * bench measures the product's path and each embedding decision against, and the
 * reference the product's vectors are tested against ({@code RawOnnxBaselineTests}).
 *
 * <p>
 * Build it after a {@link MiniLmOnnxEmbedder} in the same process: that one sets DJL's
 * process-wide settings (offline, its cache for the tokenizer's native library) and lets
 * DJL's ONNX Runtime engine create the process's one {@link OrtEnvironment}, which fails
 * if one exists already. Its own session is another model's worth of native memory.
 */
final class RawOnnxBaseline implements AutoCloseable {

    private final int batchSize;

    private final HuggingFaceTokenizer tokenizer;

    private final OrtSession session;

    /**
     * @param batchSize texts per model call
     * @param maxTokens where the tokenizer truncates
     * @param threads ONNX Runtime's intra-op threads; 0 lets it choose
     */
    RawOnnxBaseline(int batchSize, int maxTokens, int threads) {
        if (batchSize < 1 || maxTokens < 1 || threads < 0) {
            throw new IllegalArgumentException(
                    "batch size " + batchSize + ", max tokens " + maxTokens + ", threads " + threads);
        }
        this.batchSize = batchSize;
        try (InputStream in = resource(MiniLmOnnxEmbedder.TOKENIZER_RESOURCE)) {
            this.tokenizer = HuggingFaceTokenizer.newInstance(in,
                    Map.of("padding", "longest", "truncation", "true", "maxLength", String.valueOf(maxTokens)));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            this.session = OrtEnvironment.getEnvironment().createSession(model(), options(threads));
        }
        catch (OrtException e) {
            tokenizer.close();
            throw new IllegalStateException("ONNX Runtime cannot load " + MiniLmOnnxEmbedder.MODEL_RESOURCE, e);
        }
    }

    /** One unit vector per text, in the texts' order. */
    float[][] embed(List<String> texts) {
        Integer[] order = new Integer[texts.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> texts.get(i).length()));
        float[][] vectors = new float[texts.size()][];
        for (int from = 0; from < order.length; from += batchSize) {
            int to = Math.min(from + batchSize, order.length);
            List<String> batch = Arrays.stream(order, from, to).map(texts::get).toList();
            float[][] embedded = run(batch);
            for (int k = from; k < to; k++) {
                vectors[order[k]] = embedded[k - from];
            }
        }
        return vectors;
    }

    /**
     * How many tokens the model sees for each text (after truncation, without padding).
     */
    int[] tokenCounts(List<String> texts) {
        return Arrays.stream(tokenizer.batchEncode(texts))
            .mapToInt(e -> (int) Arrays.stream(e.getAttentionMask()).sum())
            .toArray();
    }

    private float[][] run(List<String> texts) {
        Encoding[] encodings = tokenizer.batchEncode(texts);
        int rows = encodings.length;
        int length = Arrays.stream(encodings).mapToInt(e -> e.getIds().length).max().orElse(0);
        long[] ids = new long[rows * length]; // shorter rows padded with id 0, mask 0
        long[] mask = new long[rows * length];
        long[] types = new long[rows * length];
        for (int row = 0; row < rows; row++) {
            int own = encodings[row].getIds().length;
            System.arraycopy(encodings[row].getIds(), 0, ids, row * length, own);
            System.arraycopy(encodings[row].getAttentionMask(), 0, mask, row * length, own);
            System.arraycopy(encodings[row].getTypeIds(), 0, types, row * length, own);
        }
        long[] shape = { rows, length };
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OnnxTensor idTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
                OnnxTensor maskTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
                OnnxTensor typeTensor = OnnxTensor.createTensor(env, LongBuffer.wrap(types), shape);
                OrtSession.Result result = session
                    .run(Map.of("input_ids", idTensor, "attention_mask", maskTensor, "token_type_ids", typeTensor))) {
            OnnxTensor hidden = (OnnxTensor) result.get(0);
            int dimension = (int) hidden.getInfo().getShape()[2];
            FloatBuffer values = hidden.getFloatBuffer();
            float[][] vectors = new float[rows][];
            for (int row = 0; row < rows; row++) {
                vectors[row] = meanPooled(values, mask, row, length, dimension);
            }
            return vectors;
        }
        catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime failed on a batch of " + rows + " texts", e);
        }
    }

    /** The mean of the row's unmasked token vectors, L2-normalised. */
    private static float[] meanPooled(FloatBuffer hidden, long[] mask, int row, int length, int dimension) {
        double[] sum = new double[dimension];
        int kept = 0;
        for (int token = 0; token < length; token++) {
            int index = row * length + token;
            if (mask[index] == 0) {
                continue;
            }
            kept++;
            for (int d = 0; d < dimension; d++) {
                sum[d] += hidden.get(index * dimension + d);
            }
        }
        double norm = 0;
        for (int d = 0; d < dimension; d++) {
            sum[d] /= Math.max(kept, 1);
            norm += sum[d] * sum[d];
        }
        norm = Math.max(Math.sqrt(norm), 1e-12);
        float[] vector = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            vector[d] = (float) (sum[d] / norm);
        }
        return vector;
    }

    /**
     * The product's session options: the CPU arena off, intra- and inter-op threads
     * sleeping instead of spinning between runs, the given number of intra-op threads.
     */
    private static OrtSession.SessionOptions options(int threads) throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setCPUArenaAllocator(false);
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
        options.addConfigEntry("session.inter_op.allow_spinning", "0");
        if (threads > 0) {
            options.setIntraOpNumThreads(threads);
        }
        return options;
    }

    /** The model's bytes from the classpath, checked against the product's SHA-256. */
    private static byte[] model() {
        byte[] onnx;
        try (InputStream in = resource(MiniLmOnnxEmbedder.MODEL_RESOURCE)) {
            onnx = in.readAllBytes();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String sha256;
        try {
            sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(onnx));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM must provide SHA-256", e);
        }
        if (!sha256.equals(MiniLmOnnxEmbedder.MODEL_SHA256)) {
            throw new IllegalStateException(MiniLmOnnxEmbedder.MODEL_RESOURCE + " has SHA-256 " + sha256
                    + ", not the product's " + MiniLmOnnxEmbedder.MODEL_SHA256);
        }
        return onnx;
    }

    private static InputStream resource(String name) {
        InputStream in = RawOnnxBaseline.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException(name + " is not on the classpath");
        }
        return in;
    }

    @Override
    public void close() {
        try {
            session.close();
        }
        catch (OrtException e) {
            throw new IllegalStateException("cannot close the ONNX session", e);
        }
        finally {
            tokenizer.close();
        }
    }

}
