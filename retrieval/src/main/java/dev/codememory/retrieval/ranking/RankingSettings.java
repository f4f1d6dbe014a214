package dev.codememory.retrieval.ranking;

import java.util.List;
import java.util.Map;

/**
 * The knobs of hybrid ranking. Weights need not sum to 1: the fused score divides by
 * their sum.
 *
 * @param semantic weight of the calibrated cosine
 * @param lexical weight of the lexical signal (BM25 relative to the query's best, times
 * IDF coverage)
 * @param recency weight of {@code 0.5^(age / halfLifeDays)}
 * @param status weight of the kind/status prior
 * @param halfLifeDays recency half-life
 * @param cosineFloor a cosine at or below this counts 0 (unrelated text for
 * all-MiniLM-L6-v2)
 * @param cosineCeil a cosine at or above this counts 1 (a paraphrase)
 * @param turnLexical share of the lexical signal taken from the best-matching source turn
 * (the rest: the memory's whole text)
 * @param candidates how many memories each signal contributes before fusion
 * @param fusion score fusion, or reciprocal-rank fusion (ranking only; the score stays
 * the fused score)
 * @param kindWeights prior per entry kind, 1.0 when absent
 * @param sourceLexical weight of a source event's own query-term coverage in its score
 * (the memory's score plus this times the share of the query's IDF mass the event's text
 * holds): orders a hit's sources and, across hits, the events a batch answer names
 * @param questionPenalty subtracted from the score of a source event that ends by asking
 * ({@link Questions}): the question repeats the query's words, the reply holds the answer
 * @param answerCarry a source event that asks brings in the event that follows it in its
 * session (the reply) at this share of the question's own score (0 switches it off)
 * @param outOfPeriod when the query names a period ({@link QueryPeriod}), the score of a
 * memory from outside it is multiplied by this (1 switches it off)
 * @param periodGraceDays how many days after a named period a memory still counts as from
 * it
 * @param textFloor a memory whose score on words, recency and kind alone (as ranked
 * without a query vector) reaches this keeps at least that score when the vector signal
 * is added: the cold and the served hook then agree on what words alone put in a band (1
 * switches it off)
 * @param turnContext how many prompts or replies said just before an exchange in its
 * session are indexed with it for the lexical signal (0 switches it off)
 */
public record RankingSettings(double k1, double b, double semantic, double lexical, double recency, double status,
        double halfLifeDays, double cosineFloor, double cosineCeil, double turnLexical, int candidates, Fusion fusion,
        Map<String, Double> kindWeights, double sourceLexical, double questionPenalty, double answerCarry,
        double outOfPeriod, int periodGraceDays, double textFloor, int turnContext) {

    public enum Fusion {

        SCORE, RRF

    }

    public RankingSettings {
        if (semantic < 0 || lexical < 0 || recency < 0 || status < 0 || semantic + lexical + recency + status <= 0) {
            throw new IllegalArgumentException("ranking weights must be >= 0 with a positive sum");
        }
        if (halfLifeDays <= 0) {
            throw new IllegalArgumentException("halfLifeDays must be positive, was " + halfLifeDays);
        }
        if (cosineCeil <= cosineFloor) {
            throw new IllegalArgumentException("cosineCeil must exceed cosineFloor");
        }
        if (turnLexical < 0 || turnLexical > 1) {
            throw new IllegalArgumentException("turnLexical must be in [0, 1], was " + turnLexical);
        }
        if (candidates < 1) {
            throw new IllegalArgumentException("candidates must be positive, was " + candidates);
        }
        if (sourceLexical < 0) {
            throw new IllegalArgumentException("sourceLexical must be >= 0, was " + sourceLexical);
        }
        if (questionPenalty < 0) {
            throw new IllegalArgumentException("questionPenalty must be >= 0, was " + questionPenalty);
        }
        if (answerCarry < 0 || answerCarry > 1) {
            throw new IllegalArgumentException("answerCarry must be in [0, 1], was " + answerCarry);
        }
        if (outOfPeriod <= 0 || outOfPeriod > 1) {
            throw new IllegalArgumentException("outOfPeriod must be in (0, 1], was " + outOfPeriod);
        }
        if (periodGraceDays < 0) {
            throw new IllegalArgumentException("periodGraceDays must be >= 0, was " + periodGraceDays);
        }
        if (textFloor < 0 || textFloor > 1) {
            throw new IllegalArgumentException("textFloor must be in [0, 1], was " + textFloor);
        }
        if (turnContext < 0) {
            throw new IllegalArgumentException("turnContext must be >= 0, was " + turnContext);
        }
        kindWeights = Map.copyOf(kindWeights);
    }

    /**
     * The defaults, tuned on the LoCoMo dev set (R@10 over expanded source turns, 456
     * questions): semantic and lexical at equal weight (0.4 / 0.4) beat 0.4 / 0.25
     * (+0.005) and either signal alone (lexical only 0.616, vector only 0.508, fused
     * 0.684); a recency weight of 0.2 with a 30-day half-life costs 0.14 there (its
     * questions are about any time), so recency is a light 0.05 with a 180-day half-life
     * (no measurable cost) that still breaks ties towards newer memories; the kind prior
     * (0.15) adds 0.002. Turn-level lexical scoring, RRF and 200 candidates per signal
     * measured no better (0.675, 0.621, 0.677). Source events that ask give way to their
     * answers (questionPenalty 0.03, answerCarry 1): R@10 0.697 → 0.744, NDCG@10 0.523 →
     * 0.561; penalties of 0.015–0.05 measure the same, a carry of 0.97 costs 0.012 NDCG.
     * Memories from outside a period the query names count 0.8 with 7 days' grace: R@10
     * 0.746 → 0.763, NDCG@10 0.572 → 0.585 (58 of the 456 questions name one; 0.7–0.9 and
     * 0–31 days of grace measure within 0.005). Indexing an exchange with the turn said
     * before it (turnContext 1) gains R@10 0.757 → 0.772, NDCG@10 0.582 → 0.588 there,
     * but on the coding QA dev set one answer fewer is pushed (prompt 0.63 → 0.609): off.
     */
    public static RankingSettings defaults() {
        return new RankingSettings(Bm25Index.DEFAULT_K1, Bm25Index.DEFAULT_B, 0.4, 0.4, 0.05, 0.15, 180, 0.15, 0.75,
                0.0, 100, Fusion.SCORE,
                Map.of("decision", 1.0, "preference", 1.0, "fact", 1.0, "insight", 1.0, "work", 1.0, "task", 0.95,
                        "exchange", 0.9, "observation", 0.8, "summary", 0.6),
                0.2, 0.03, 1.0, 0.8, 7, MatchBand.SUGGESTED_SCORE, 0);
    }

    public double kindWeight(String kind) {
        return kindWeights.getOrDefault(kind, 1.0);
    }

    /**
     * The numeric settings {@link #with} can change, in the order of {@link #numbers()}.
     */
    private static final List<String> NUMERIC = List.of("k1", "b", "semantic", "lexical", "recency", "status",
            "halfLifeDays", "cosineFloor", "cosineCeil", "turnLexical", "candidates", "sourceLexical",
            "questionPenalty", "answerCarry", "outOfPeriod", "periodGraceDays", "textFloor", "turnContext");

    private double[] numbers() {
        return new double[] { k1, b, semantic, lexical, recency, status, halfLifeDays, cosineFloor, cosineCeil,
                turnLexical, candidates, sourceLexical, questionPenalty, answerCarry, outOfPeriod, periodGraceDays,
                textFloor, turnContext };
    }

    /**
     * A copy with one setting changed, by its component name, or {@code kind.<kind>} for
     * a kind weight.
     */
    public RankingSettings with(String key, String value) {
        double[] n = numbers();
        Fusion f = fusion;
        Map<String, Double> kinds = kindWeights;
        if (key.startsWith("kind.")) {
            kinds = new java.util.HashMap<>(kindWeights);
            kinds.put(key.substring(5), Double.parseDouble(value));
        }
        else if (key.equals("fusion")) {
            f = Fusion.valueOf(value.toUpperCase(java.util.Locale.ROOT));
        }
        else if (NUMERIC.contains(key)) {
            n[NUMERIC.indexOf(key)] = Double.parseDouble(value);
        }
        else {
            throw new IllegalArgumentException("unknown ranking setting '" + key + "'");
        }
        return new RankingSettings(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[9], (int) n[10], f, kinds,
                n[11], n[12], n[13], n[14], (int) n[15], n[16], (int) n[17]);
    }
}
