package dev.codememory.config.vector;

import java.util.Collection;
import java.util.List;

/**
 * Where memory vectors live for one embedding version: the embedded DuckDB table
 * (default) or a Milvus collection. Upserts and deletes are idempotent, keyed by memory
 * id.
 */
public interface VectorStore extends AutoCloseable {

    /**
     * Creates the table or collection for this version if it does not exist. Idempotent.
     */
    void ensureReady();

    EmbeddingVersion version();

    void upsert(List<VectorRecord> records);

    void delete(Collection<String> memoryIds);

    /** The {@code topK} most similar vectors that pass the filter, best first. */
    List<VectorHit> search(float[] query, int topK, VectorFilter filter);

    long count();

    /**
     * The stored vectors of these memories, by memory id; a memory without one is absent.
     */
    java.util.Map<String, float[]> vectors(Collection<String> memoryIds);

    /** Drops every vector of this version (reindex into a fresh index). */
    void clear();

    @Override
    default void close() {
    }

}
