package dev.codememory.retrieval.embed;

import dev.codememory.config.vector.EmbeddingVersion;

import java.util.List;

/**
 * Turns texts into vectors for similarity search. Vectors are L2-normalised (so cosine
 * similarity is a dot product), have {@code version().dimension()} components, and are
 * deterministic: the same text always gives the same vector, alone or in any batch.
 * Vectors of different {@link #version() versions} must never be compared.
 */
public interface Embedder extends AutoCloseable {

    /** What produces the vectors; stored with every vector. */
    EmbeddingVersion version();

    /** One unit-length vector per text, in order. An empty list gives an empty array. */
    float[][] embed(List<String> texts);

    default float[] embed(String text) {
        return embed(List.of(text))[0];
    }

    /** Releases native resources; the embedder must not be used afterwards. */
    @Override
    default void close() {
    }

}
