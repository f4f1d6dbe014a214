package dev.codememory.processors.query;

import dev.codememory.config.vector.EmbeddedKinds;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hybrid ranking of one project's memories: an in-memory BM25 index over title + body, built once per process and
 * reused for every query, fused with vector similarity, recency and a kind/status prior.
 *
 * <p>The fused score, in [0, 1] so that the matcher's bands ({@link MatchBand}) mean something:
 * <pre>
 *   score = (ws·S + wl·L + wr·R + wk·K) / (ws + wl + wr + wk)
 *   S = clamp((cosine − floor) / (ceil − floor), 0, 1)          calibrated cosine
 *   L = (1 − t)·Lm + t·Lt, where Lx = sqrt(bm25 / max bm25 for this query × idf coverage) over the memory's
 *       text (Lm) or its best source turn (Lt): 1 = the best lexical match, holding every query term
 *   R = 0.5 ^ (max(0, at − created) / halfLife)                  recency relative to the query time
 *   K = kind weight × (1 if active else 0.5)                     prior
 * </pre>
 * Candidates are the {@code candidates} best by BM25 plus the vector hits (the caller asks the vector store for as
 * many); a lexical candidate the vector search did not return gets the lowest cosine it did return, and one of a kind
 * that gets no vector ({@link EmbeddedKinds}) is scored as {@link #fuseWithoutSemantic} scores it. When the query
 * names a period ({@link QueryPeriod}: "in August 2023", "on 13 October, 2023"), a memory created outside it (with
 * {@code periodGraceDays} of grace) has its score multiplied by {@code outOfPeriod}.
 */
public final class HybridRanker {

    /** The most a score without the semantic signal can be worth: see {@link #fuseWithoutSemantic}. */
    public static final double TEXT_ONLY_CONFIDENCE = 0.9;

    private final List<MemoryDoc> docs = new ArrayList<>();
    private final RankingSettings settings;
    private final Bm25Index index;
    private final Map<String, Integer> positions = new HashMap<>();
    private final Bm25Index parts;
    private final List<Integer> docOfPart = new ArrayList<>();
    private final Map<Integer, List<Integer>> partsOfDoc = new HashMap<>();

    public HybridRanker(List<MemoryDoc> docs, RankingSettings settings) {
        this.settings = settings;
        this.index = new Bm25Index(settings.k1(), settings.b());
        this.parts = new Bm25Index(settings.k1(), settings.b());
        add(docs);
    }

    /**
     * Indexes more memories (a graduation's new ones) without rebuilding: BM25 statistics then equal those of an index
     * built over all of them. A memory already present is replaced. Not safe to call while {@link #rank} runs.
     */
    public void add(List<MemoryDoc> more) {
        for (MemoryDoc d : more) {
            if (positions.containsKey(d.memoryId())) {
                remove(List.of(d.memoryId()));
            }
            int pos = docs.size();
            docs.add(d);
            positions.put(d.memoryId(), index.add(d.memoryId(), QueryTokenizer.tokenize(d.text())));
            List<Integer> own = new ArrayList<>(d.parts().size());
            for (String part : d.parts()) {
                own.add(parts.add(d.memoryId(), QueryTokenizer.tokenize(part)));
                docOfPart.add(pos);
            }
            partsOfDoc.put(pos, own);
        }
    }

    /** Drops memories (superseded, forgotten) from the index. Not safe to call while {@link #rank} runs. */
    public void remove(java.util.Collection<String> memoryIds) {
        for (String id : memoryIds) {
            Integer pos = positions.remove(id);
            if (pos == null) {
                continue;
            }
            MemoryDoc d = docs.get(pos);
            index.remove(pos, QueryTokenizer.tokenize(d.text()));
            List<Integer> own = partsOfDoc.remove(pos);
            for (int i = 0; i < own.size(); i++) {
                parts.remove(own.get(i), QueryTokenizer.tokenize(d.parts().get(i)));
            }
        }
    }

    public boolean contains(String memoryId) {
        return positions.containsKey(memoryId);
    }

    /**
     * How well one source text of a hit matches the query: the share of the query's IDF mass (over the memory
     * index) that the text holds, in [0, 1]. An exchange's answer is often in the reply, not the prompt; this
     * orders a hit's sources and, weighted by {@link RankingSettings#sourceLexical()}, the events of an answer.
     */
    public double sourceCoverage(List<String> queryTerms, String text) {
        return index.coverage(queryTerms, new java.util.HashSet<>(QueryTokenizer.tokenize(text)));
    }

    /** A source event's score: its memory's fused score plus {@code sourceLexical} × its own coverage. */
    public double sourceScore(double memoryScore, double coverage) {
        return memoryScore + settings.sourceLexical() * coverage;
    }

    /**
     * The score of a source event that ends by asking ({@link Questions#asks}): its {@link #sourceScore} less
     * {@code questionPenalty}, so that the reply it brings in ({@link #answerScore}) ranks above it.
     */
    public double questionScore(double sourceScore) {
        return sourceScore - settings.questionPenalty();
    }

    /**
     * The score at which a question's reply — the next prompt or reply of its session — joins the hit's sources:
     * {@code answerCarry} × the question's {@link #sourceScore} before its penalty; 0 when switched off.
     */
    public double answerScore(double questionSourceScore) {
        return settings.answerCarry() * questionSourceScore;
    }

    /** Memories indexed now. */
    public int size() {
        return positions.size();
    }

    public RankingSettings settings() {
        return settings;
    }

    /**
     * Ranks memories for a query.
     *
     * @param cosines memory id → cosine of its vector with the query's (the vector store's top hits; may be empty);
     *                null when no query vector exists (the model could not answer in time): the semantic part is
     *                then left out of the fused score and the other weights are renormalised, so the bands keep
     *                their meaning on the signals that are there
     */
    public List<RankedMemory> rank(String queryText, Map<String, Double> cosines, LocalDateTime at, int topK) {
        boolean semanticKnown = cosines != null;
        cosines = semanticKnown ? cosines : Map.of();
        List<String> terms = QueryTokenizer.tokenize(queryText);
        double[] bm25 = index.score(terms);
        double[] coverage = index.coverage(terms);
        double[] memoryLexical = lexical(bm25, coverage);
        double[] turnLexical = new double[docs.size()];
        if (settings.turnLexical() > 0 && parts.liveSize() > 0) {
            double[] byPart = lexical(parts.score(terms), parts.coverage(terms));
            for (int part = 0; part < byPart.length; part++) {
                int pos = docOfPart.get(part);
                turnLexical[pos] = Math.max(turnLexical[pos], byPart[part]);
            }
        }
        double t = settings.turnLexical();
        double[] lexical = new double[docs.size()];
        for (int pos = 0; pos < lexical.length; pos++) {
            lexical[pos] = (1 - t) * memoryLexical[pos] + t * turnLexical[pos];
        }
        Set<Integer> candidates = new LinkedHashSet<>(topByScore(lexical, settings.candidates()));
        double minCosine = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, Double> e : cosines.entrySet()) {
            Integer pos = positions.get(e.getKey());
            if (pos != null) {
                candidates.add(pos);
                minCosine = Math.min(minCosine, e.getValue());
            }
        }
        if (minCosine == Double.POSITIVE_INFINITY) {
            minCosine = settings.cosineFloor();
        }
        QueryPeriod period = settings.outOfPeriod() < 1 ? QueryPeriod.of(queryText, at.toLocalDate()).orElse(null)
                : null;
        List<RankedMemory> ranked = new ArrayList<>(candidates.size());
        for (int pos : candidates) {
            MemoryDoc d = docs.get(pos);
            double cos = cosines.getOrDefault(d.memoryId(), minCosine);
            // a memory of a kind that gets no vector is scored on the signals it has, as when no query vector exists
            RankedMemory r = semanticKnown && EmbeddedKinds.embedded(d.kind()) ? fuse(d, cos, lexical[pos], at)
                    : fuseWithoutSemantic(d, lexical[pos], at);
            if (period != null && !period.holds(d.createdTs(), settings.periodGraceDays())) {
                r = new RankedMemory(r.memoryId(), r.score() * settings.outOfPeriod(), r.semantic(), r.lexical(),
                        r.recency(), r.status());
            }
            ranked.add(r);
        }
        Comparator<RankedMemory> byScore = Comparator.comparingDouble(RankedMemory::score).reversed()
                .thenComparing(RankedMemory::memoryId);
        if (settings.fusion() == RankingSettings.Fusion.RRF) {
            ranked = reciprocalRankOrder(ranked);
        } else {
            ranked.sort(byScore);
        }
        return ranked.size() > topK ? List.copyOf(ranked.subList(0, topK)) : ranked;
    }

    /** {@code sqrt(bm25 / best bm25 × idf coverage)} per document: 1 for the best match holding every term. */
    private static double[] lexical(double[] bm25, double[] coverage) {
        double max = 0;
        for (double s : bm25) {
            max = Math.max(max, s);
        }
        double[] out = new double[bm25.length];
        for (int i = 0; i < bm25.length && max > 0; i++) {
            out[i] = Math.sqrt(bm25[i] / max * coverage[i]);
        }
        return out;
    }

    /** The fused score of one memory from its raw signals. */
    public RankedMemory fuse(MemoryDoc d, double cosine, double lexical, LocalDateTime at) {
        double semantic = clamp((cosine - settings.cosineFloor()) / (settings.cosineCeil() - settings.cosineFloor()));
        return combine(d, semantic, settings.semantic(), lexical, at);
    }

    /**
     * The fused score when there is no query vector: the same parts without S, over the remaining weights, times
     * {@link #TEXT_ONLY_CONFIDENCE}. Lexical scores are relative to the query's best match, so on words alone many
     * memories reach L ≈ 1; the discount keeps such a score out of the high band (0.92) and lets it reach the
     * suggested band (0.75) only with a near-complete lexical match (L ≥ 0.91 for an old memory of weight 0.9).
     */
    public RankedMemory fuseWithoutSemantic(MemoryDoc d, double lexical, LocalDateTime at) {
        RankedMemory r = combine(d, 0, 0, lexical, at);
        return new RankedMemory(r.memoryId(), r.score() * TEXT_ONLY_CONFIDENCE, r.semantic(), r.lexical(),
                r.recency(), r.status());
    }

    private RankedMemory combine(MemoryDoc d, double semantic, double semanticWeight, double lexical,
            LocalDateTime at) {
        double recency = recency(d.createdTs(), at, settings.halfLifeDays());
        double status = prior(d);
        double weights = semanticWeight + settings.lexical() + settings.recency() + settings.status();
        double score = weights <= 0 ? 0 : (semanticWeight * semantic + settings.lexical() * clamp(lexical)
                + settings.recency() * recency + settings.status() * status) / weights;
        return new RankedMemory(d.memoryId(), score, semantic, clamp(lexical), recency, status);
    }

    /** K: the kind weight, halved for a memory that is no longer active. */
    private double prior(MemoryDoc d) {
        return clamp(settings.kindWeight(d.kind()) * ("active".equals(d.status()) ? 1.0 : 0.5));
    }

    /** {@code 0.5^(age / halfLife)}; a memory newer than the query time counts as brand new. */
    public static double recency(LocalDateTime created, LocalDateTime at, double halfLifeDays) {
        double ageDays = Math.max(0, Duration.between(created, at).toSeconds() / 86_400.0);
        return Math.pow(0.5, ageDays / halfLifeDays);
    }

    /** RRF (k = 60) over the semantic and lexical orders, recency and prior as small tie-breakers. */
    private static List<RankedMemory> reciprocalRankOrder(List<RankedMemory> ranked) {
        Map<String, Double> rrf = new HashMap<>();
        List<RankedMemory> bySemantic = new ArrayList<>(ranked);
        bySemantic.sort(Comparator.comparingDouble(RankedMemory::semantic).reversed()
                .thenComparing(RankedMemory::memoryId));
        List<RankedMemory> byLexical = new ArrayList<>(ranked);
        byLexical.sort(Comparator.comparingDouble(RankedMemory::lexical).reversed()
                .thenComparing(RankedMemory::memoryId));
        for (int i = 0; i < bySemantic.size(); i++) {
            rrf.merge(bySemantic.get(i).memoryId(), 1.0 / (60 + i + 1), Double::sum);
            rrf.merge(byLexical.get(i).memoryId(), 1.0 / (60 + i + 1), Double::sum);
        }
        List<RankedMemory> out = new ArrayList<>(ranked);
        out.sort(Comparator.<RankedMemory>comparingDouble(r -> rrf.get(r.memoryId()) + 1e-4 * r.status()
                + 1e-4 * r.recency()).reversed().thenComparing(RankedMemory::memoryId));
        return out;
    }

    /**
     * The positions of the {@code n} best positive scores, best first, ties by position: a bounded heap, so a query
     * whose words occur in most of a large project does not sort all of it.
     */
    private static List<Integer> topByScore(double[] scores, int n) {
        java.util.Comparator<Integer> better = (x, y) -> Double.compare(scores[y], scores[x]) != 0
                ? Double.compare(scores[y], scores[x]) : Integer.compare(x, y);
        java.util.PriorityQueue<Integer> worstFirst = new java.util.PriorityQueue<>(n + 1, better.reversed());
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] <= 0) {
                continue;
            }
            if (worstFirst.size() < n) {
                worstFirst.add(i);
            } else if (better.compare(i, worstFirst.peek()) < 0) {
                worstFirst.poll();
                worstFirst.add(i);
            }
        }
        List<Integer> hits = new ArrayList<>(worstFirst);
        hits.sort(better);
        return hits;
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
