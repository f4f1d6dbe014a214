package dev.codememory.config.vector;

import java.util.Locale;
import java.util.Objects;

/**
 * What produced a vector: model, dimension, pooling and token limit. Vectors of different
 * versions are never compared; every stored vector records its version's {@link #id()}.
 */
public record EmbeddingVersion(String model, int dimension, String pooling, int maxTokens) {

    public EmbeddingVersion {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(pooling, "pooling");
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be positive, was " + dimension);
        }
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be positive, was " + maxTokens);
        }
    }

    /**
     * A stable id usable as a table or collection suffix: lower case letters, digits and
     * underscores.
     */
    public String id() {
        return (model + "_" + dimension + "_" + pooling + "_" + maxTokens).toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "_");
    }
}
