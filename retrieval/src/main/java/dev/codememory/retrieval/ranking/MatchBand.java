package dev.codememory.retrieval.ranking;

import java.util.List;

/**
 * The matcher's confidence bands (reference spec §6.3) over fused scores: {@code HIGH}
 * when the best score is at least 0.92 and leads the next by at least 0.03,
 * {@code SUGGESTED} from 0.75, else {@code NONE}.
 */
public enum MatchBand {

    HIGH, SUGGESTED, NONE;

    public static final double HIGH_SCORE = 0.92;

    public static final double HIGH_GAP = 0.03;

    public static final double SUGGESTED_SCORE = 0.75;

    /**
     * The band of the best of these scores (best first); an empty list is {@code NONE}.
     */
    public static MatchBand of(List<Double> scoresBestFirst) {
        if (scoresBestFirst.isEmpty()) {
            return NONE;
        }
        double top = scoresBestFirst.get(0);
        double gap = scoresBestFirst.size() > 1 ? top - scoresBestFirst.get(1) : top;
        if (top >= HIGH_SCORE && gap >= HIGH_GAP) {
            return HIGH;
        }
        return top >= SUGGESTED_SCORE ? SUGGESTED : NONE;
    }

    /** The band of one result given the score that follows it (null when it is last). */
    public static MatchBand of(double score, Double next) {
        return next == null ? of(List.of(score)) : of(List.of(score, next));
    }

}
