package dev.codememory.config.vector;

/** A search result: the memory and its cosine similarity to the query, in [-1, 1]. */
public record VectorHit(String memoryId, double score) {
}
