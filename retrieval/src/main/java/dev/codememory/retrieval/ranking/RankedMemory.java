package dev.codememory.retrieval.ranking;

/**
 * One ranked memory: the fused score in [0, 1] and the normalised signals it was made of
 * (each in [0, 1]).
 */
public record RankedMemory(String memoryId, double score, double semantic, double lexical, double recency,
        double status) {
}
