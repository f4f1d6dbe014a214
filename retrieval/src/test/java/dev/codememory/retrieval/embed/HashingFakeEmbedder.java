package dev.codememory.retrieval.embed;

import dev.codememory.config.vector.EmbeddingVersion;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Objects;

/**
 * A stand-in for unit tests: each text's vector is pseudo-random, seeded by the SHA-256
 * of its UTF-8 bytes, then L2-normalised. Identical texts give identical vectors in every
 * run and JVM; similar texts are not similar. No model, no natives, microseconds per
 * text. Its version has the real model's dimension and token limit, so code sized by the
 * version behaves the same, but a distinct model name, so its vectors never mix with real
 * ones.
 *
 * <p>
 * Stateless and thread-safe.
 */
public final class HashingFakeEmbedder implements Embedder {

    public static final String MODEL = "hashing-fake";

    private final EmbeddingVersion version;

    /** 384-d, like the default model. */
    public HashingFakeEmbedder() {
        this(MiniLmOnnxEmbedder.VERSION.dimension());
    }

    public HashingFakeEmbedder(int dimension) {
        this.version = new EmbeddingVersion(MODEL, dimension, "hash", MiniLmOnnxEmbedder.MAX_TOKENS);
    }

    @Override
    public EmbeddingVersion version() {
        return version;
    }

    @Override
    public float[][] embed(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        float[][] vectors = new float[texts.size()][];
        for (int i = 0; i < vectors.length; i++) {
            vectors[i] = vector(Objects.requireNonNull(texts.get(i), "texts contains null"));
        }
        return vectors;
    }

    private float[] vector(String text) {
        long state = ByteBuffer.wrap(sha256(text)).getLong();
        double[] values = new double[version.dimension()];
        double norm = 0.0;
        do {
            for (int d = 0; d < values.length; d++) {
                state += 0x9E3779B97F4A7C15L;
                // uniform in [-1, 1) from the top 53 bits of a SplitMix64 step
                values[d] = (splitMix(state) >>> 11) * 0x1.0p-52 - 1.0;
                norm += values[d] * values[d];
            }
        }
        while (norm == 0.0);
        norm = Math.sqrt(norm);
        float[] vector = new float[values.length];
        for (int d = 0; d < values.length; d++) {
            vector[d] = (float) (values[d] / norm);
        }
        return vector;
    }

    private static long splitMix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM must provide SHA-256", e);
        }
    }

}
