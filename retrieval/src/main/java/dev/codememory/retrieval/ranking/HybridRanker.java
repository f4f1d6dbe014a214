package dev.codememory.retrieval.ranking;

import dev.codememory.config.time.UtcMicros;
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
 * Hybrid ranking of one project's memories: an in-memory BM25 index over title + body,
 * built once per process and reused for every query, fused with vector similarity,
 * recency and a kind/status prior.
 *
 * <p>
 * The fused score, in [0, 1] so that the matcher's bands ({@link MatchBand}) mean
 * something: <pre>
 *   score = (ws·S + wl·L + wr·R + wk·K) / (ws + wl + wr + wk)
 *   S = clamp((cosine − floor) / (ceil − floor), 0, 1)          calibrated cosine
 *   L = (1 − t)·Lm + t·Lt, where Lx = sqrt(bm25 / max bm25 for this query × idf coverage) over the memory's
 *       text (Lm) or its best source turn (Lt): 1 = the best lexical match, holding every query term
 *   R = 0.5 ^ (max(0, at − created) / halfLife)                  recency relative to the query time
 *   K = kind weight × (1 if active else 0.5)                     prior
 * </pre> Candidates are the {@code candidates} best by BM25 plus the vector hits (the
 * caller asks the vector store for as many); a lexical candidate the vector search did
 * not return gets the lowest cosine it did return, and one of a kind that gets no vector
 * ({@link EmbeddedKinds}) is scored as {@link #fuseOnWords} scores it. When the query
 * names a period ({@link QueryPeriod}: "in August 2023", "on 13 October, 2023"), a memory
 * created outside it (with {@code periodGraceDays} of grace) has its score multiplied by
 * {@code outOfPeriod}.
 */
public final class HybridRanker {

    /**
     * The most a score without the semantic signal can be worth: see
     * {@link #fuseWithoutSemantic}.
     */
    public static final double TEXT_ONLY_CONFIDENCE = 0.9;

    /**
     * By position: what ranking reads of a memory (its texts, once indexed, are not
     * needed again).
     */
    private final List<Indexed> docs = new ArrayList<>();

    private final RankingSettings settings;

    private final Bm25Index index;

    private final Map<String, Integer> positions = new HashMap<>();

    private final Bm25Index parts;

    /**
     * By part: the position of its memory. A memory's parts are added together:
     * {@code partsFrom[pos]} on.
     */
    private int[] docOfPart = new int[16];

    private int[] partsFrom = new int[16];

    private int[] partsCount = new int[16];

    public HybridRanker(List<MemoryDoc> docs, RankingSettings settings) {
        this.settings = settings;
        this.index = new Bm25Index(settings.k1(), settings.b());
        this.parts = new Bm25Index(settings.k1(), settings.b());
        add(docs);
    }

    /**
     * Indexes more memories (a graduation's new ones) without rebuilding: BM25 statistics
     * then equal those of an index built over all of them. A memory already present is
     * replaced. Not safe to call while {@link #rank} runs.
     */
    public void add(List<MemoryDoc> more) {
        remove(more.stream().map(MemoryDoc::memoryId).filter(positions::containsKey).toList());
        for (MemoryDoc d : more) {
            int pos = docs.size();
            docs.add(new Indexed(d.memoryId(), d.kind(), d.status(), UtcMicros.of(d.createdTs())));
            positions.put(d.memoryId(), index.add(d.memoryId(), QueryTokenizer.tokenize(d.text())));
            if (pos == partsFrom.length) {
                partsFrom = java.util.Arrays.copyOf(partsFrom, pos * 2);
                partsCount = java.util.Arrays.copyOf(partsCount, pos * 2);
            }
            partsFrom[pos] = parts.size();
            partsCount[pos] = d.parts().size();
            for (String part : d.parts()) {
                int p = parts.add(d.memoryId(), QueryTokenizer.tokenize(part));
                if (p == docOfPart.length) {
                    docOfPart = java.util.Arrays.copyOf(docOfPart, p * 2);
                }
                docOfPart[p] = pos;
            }
        }
    }

    /**
     * Drops memories (superseded, forgotten) from the index. Not safe to call while
     * {@link #rank} runs.
     */
    public void remove(java.util.Collection<String> memoryIds) {
        List<Integer> gone = new ArrayList<>();
        List<Integer> goneParts = new ArrayList<>();
        for (String id : memoryIds) {
            Integer pos = positions.remove(id);
            if (pos != null) {
                gone.add(pos);
                for (int p = partsFrom[pos]; p < partsFrom[pos] + partsCount[pos]; p++) {
                    goneParts.add(p);
                }
            }
        }
        index.remove(gone);
        parts.remove(goneParts);
    }

    /**
     * Whether some memory holds one of the query's terms, in its text or one of its
     * parts: when none does, what ranks is near by meaning alone.
     */
    public boolean holdsAnyOf(List<String> queryTerms) {
        return queryTerms.stream().anyMatch(term -> index.holds(term) || parts.holds(term));
    }

    public boolean contains(String memoryId) {
        return positions.containsKey(memoryId);
    }

    /**
     * How well one source text of a hit matches the query: the share of the query's IDF
     * mass (over the memory index) that the text holds, in [0, 1]. An exchange's answer
     * is often in the reply, not the prompt; this orders a hit's sources and, weighted by
     * {@link RankingSettings#sourceLexical()}, the events of an answer.
     */
    public double sourceCoverage(List<String> queryTerms, String text) {
        return index.coverage(queryTerms, new java.util.HashSet<>(QueryTokenizer.tokenize(text)));
    }

    /**
     * Each distinct term of {@code queryTerms} with its IDF over the memory index, in the
     * order first met: a snapshot that stays right while memories are added.
     */
    public Map<String, Double> termWeights(List<String> queryTerms) {
        Map<String, Double> weights = new java.util.LinkedHashMap<>();
        for (String term : queryTerms) {
            weights.computeIfAbsent(term, index::idf);
        }
        return weights;
    }

    /**
     * A source event's score: its memory's fused score plus {@code sourceLexical} × its
     * own coverage.
     */
    public double sourceScore(double memoryScore, double coverage) {
        return memoryScore + settings.sourceLexical() * coverage;
    }

    /**
     * The score of a source event that ends by asking ({@link Questions#asks}): its
     * {@link #sourceScore} less {@code questionPenalty}, so that the reply it brings in
     * ({@link #answerScore}) ranks above it.
     */
    public double questionScore(double sourceScore) {
        return sourceScore - settings.questionPenalty();
    }

    /**
     * The score at which a question's reply — the next prompt or reply of its session —
     * joins the hit's sources: {@code answerCarry} × the question's {@link #sourceScore}
     * before its penalty; 0 when switched off.
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
     * @param cosines memory id → cosine of its vector with the query's (the vector
     * store's top hits; may be empty); null when no query vector exists (the model could
     * not answer in time): the semantic part is then left out of the fused score and the
     * other weights are renormalised, so the bands keep their meaning on the signals that
     * are there
     */
    public List<RankedMemory> rank(String queryText, Map<String, Double> cosines, LocalDateTime at, int topK) {
        boolean semanticKnown = cosines != null;
        cosines = semanticKnown ? cosines : Map.of();
        List<String> terms = QueryTokenizer.tokenize(queryText);
        // L by position, for the memories a query term occurs in (in their text or a
        // part): the rest score 0
        double t = settings.turnLexical();
        PositionSums sums = PositionSums.take(docs.size());
        PositionSums partSums = null;
        int matched = 0;
        int partsMatched = 0;
        try {
            matched = index.match(terms, sums);
            double[] lexical = sums.first;
            double[] turnLexical = sums.second;
            double best = best(sums, matched);
            for (int i = 0; i < matched; i++) {
                int pos = sums.touched[i];
                lexical[pos] = (1 - t) * lexical(lexical[pos], best, turnLexical[pos]);
                turnLexical[pos] = 0;
            }
            if (t > 0 && parts.liveSize() > 0) {
                partSums = PositionSums.take(parts.size());
                partsMatched = parts.match(terms, partSums);
                double bestPart = best(partSums, partsMatched);
                java.util.BitSet seen = new java.util.BitSet(docs.size());
                for (int i = 0; i < matched; i++) {
                    seen.set(sums.touched[i]);
                }
                for (int i = 0; i < partsMatched; i++) {
                    int part = partSums.touched[i];
                    int pos = docOfPart[part];
                    turnLexical[pos] = Math.max(turnLexical[pos],
                            lexical(partSums.first[part], bestPart, partSums.second[part]));
                    if (!seen.get(pos)) {
                        seen.set(pos);
                        sums.touch(matched++, pos);
                    }
                }
                for (int i = 0; i < matched; i++) {
                    int pos = sums.touched[i];
                    lexical[pos] += t * turnLexical[pos];
                }
            }
            return ranked(queryText, cosines, semanticKnown, at, topK, lexical,
                    topByScore(lexical, java.util.Arrays.copyOf(sums.touched, matched), settings.candidates()));
        }
        finally {
            sums.give(matched);
            if (partSums != null) {
                partSums.give(partsMatched);
            }
        }
    }

    /**
     * The candidates' fused scores, best first: the best lexical matches (given) and the
     * vector hits.
     */
    private List<RankedMemory> ranked(String queryText, Map<String, Double> cosines, boolean semanticKnown,
            LocalDateTime at, int topK, double[] lexical, List<Integer> bestLexical) {
        Set<Integer> candidates = new LinkedHashSet<>(bestLexical);
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
            MemoryDoc d = docs.get(pos).doc();
            double cos = cosines.getOrDefault(d.memoryId(), minCosine);
            RankedMemory r = !EmbeddedKinds.embedded(d.kind()) ? fuseOnWords(d, lexical[pos], at)
                    : semanticKnown ? fuse(d, cos, lexical[pos], at) : fuseWithoutSemantic(d, lexical[pos], at);
            if (period != null && !period.holds(d.createdTs(), settings.periodGraceDays())) {
                r = new RankedMemory(r.memoryId(), r.score() * settings.outOfPeriod(), r.semantic(), r.lexical(),
                        r.recency(), r.status());
            }
            ranked.add(r);
        }
        Comparator<RankedMemory> byScore = Comparator.comparingDouble(RankedMemory::score)
            .reversed()
            .thenComparing(RankedMemory::memoryId);
        if (settings.fusion() == RankingSettings.Fusion.RRF) {
            ranked = reciprocalRankOrder(ranked);
        }
        else {
            ranked.sort(byScore);
        }
        return ranked.size() > topK ? List.copyOf(ranked.subList(0, topK)) : ranked;
    }

    /** The best BM25 score among the matches summed in {@code sums.first}. */
    private static double best(PositionSums sums, int matched) {
        double max = 0;
        for (int i = 0; i < matched; i++) {
            max = Math.max(max, sums.first[sums.touched[i]]);
        }
        return max;
    }

    /**
     * {@code sqrt(bm25 / best bm25 × idf coverage)}: 1 for the best match holding every
     * term.
     */
    private static double lexical(double bm25, double best, double coverage) {
        return best > 0 ? Math.sqrt(bm25 / best * coverage) : 0;
    }

    /**
     * The fused score of one memory from its raw signals; never below its score without
     * the semantic signal ({@link #fuseWithoutSemantic}) once that reaches
     * {@link RankingSettings#textFloor()}. Without the floor, a memory that words alone
     * put in the suggested band (the cold hook's answer) could fall out of it once the
     * vector signal is added: with a full lexical match, an exchange scores 0.88 on words
     * but 0.59 + 0.4·S with vectors, below 0.75 for any cosine under 0.40. The vector
     * signal may raise a match, never veto one that words make.
     */
    public RankedMemory fuse(MemoryDoc d, double cosine, double lexical, LocalDateTime at) {
        double semantic = clamp((cosine - settings.cosineFloor()) / (settings.cosineCeil() - settings.cosineFloor()));
        RankedMemory fused = combine(d, semantic, settings.semantic(), lexical, at);
        RankedMemory words = fuseWithoutSemantic(d, lexical, at);
        if (words.score() >= settings.textFloor() && words.score() > fused.score()) {
            return new RankedMemory(fused.memoryId(), words.score(), fused.semantic(), fused.lexical(), fused.recency(),
                    fused.status());
        }
        return fused;
    }

    /**
     * The fused score when there is no query vector: the same parts without S, over the
     * remaining weights, times {@link #TEXT_ONLY_CONFIDENCE}. Lexical scores are relative
     * to the query's best match, so on words alone many memories reach L ≈ 1; the
     * discount keeps such a score out of the high band (0.92) and lets it reach the
     * suggested band (0.75) only with a near-complete lexical match (L ≥ 0.91 for an old
     * memory of weight 0.9).
     */
    public RankedMemory fuseWithoutSemantic(MemoryDoc d, double lexical, LocalDateTime at) {
        RankedMemory r = combine(d, 0, 0, lexical, at);
        return new RankedMemory(r.memoryId(), r.score() * TEXT_ONLY_CONFIDENCE, r.semantic(), r.lexical(), r.recency(),
                r.status());
    }

    /**
     * The fused score of a memory of a kind that never gets a vector
     * ({@link EmbeddedKinds}): its words stand in for its meaning (S = L), under
     * {@link #TEXT_ONLY_CONFIDENCE}, and never below {@link #fuseWithoutSemantic}. A
     * vector that is missing because the store did not answer says nothing about a
     * memory; a kind that has none by design has only its words, and a tool observation
     * that holds the query word for word (the exact {@code git commit} line a developer
     * pastes) then outranks an aggregate that shares half its words (0.83 against 0.78
     * for a full match of an old observation). Below L ≈ 0.6 the two scores are the same;
     * an old observation reaches the suggested band (0.75) at L ≥ 0.89 (0.95 on words
     * alone), the high band (0.92) never. The same whether or not the query has a vector,
     * so the cold and the served hook agree.
     */
    public RankedMemory fuseOnWords(MemoryDoc d, double lexical, LocalDateTime at) {
        RankedMemory alone = fuseWithoutSemantic(d, lexical, at);
        RankedMemory r = combine(d, clamp(lexical), settings.semantic(), lexical, at);
        double score = r.score() * TEXT_ONLY_CONFIDENCE;
        return score > alone.score() ? new RankedMemory(r.memoryId(), score, 0, r.lexical(), r.recency(), r.status())
                : alone;
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

    /**
     * {@code 0.5^(age / halfLife)}; a memory newer than the query time counts as brand
     * new.
     */
    public static double recency(LocalDateTime created, LocalDateTime at, double halfLifeDays) {
        double ageDays = Math.max(0, Duration.between(created, at).toSeconds() / 86_400.0);
        return Math.pow(0.5, ageDays / halfLifeDays);
    }

    /**
     * RRF (k = 60) over the semantic and lexical orders, recency and prior as small
     * tie-breakers.
     */
    private static List<RankedMemory> reciprocalRankOrder(List<RankedMemory> ranked) {
        Map<String, Double> rrf = new HashMap<>();
        List<RankedMemory> bySemantic = new ArrayList<>(ranked);
        bySemantic
            .sort(Comparator.comparingDouble(RankedMemory::semantic).reversed().thenComparing(RankedMemory::memoryId));
        List<RankedMemory> byLexical = new ArrayList<>(ranked);
        byLexical
            .sort(Comparator.comparingDouble(RankedMemory::lexical).reversed().thenComparing(RankedMemory::memoryId));
        for (int i = 0; i < bySemantic.size(); i++) {
            rrf.merge(bySemantic.get(i).memoryId(), 1.0 / (60 + i + 1), Double::sum);
            rrf.merge(byLexical.get(i).memoryId(), 1.0 / (60 + i + 1), Double::sum);
        }
        List<RankedMemory> out = new ArrayList<>(ranked);
        out.sort(Comparator
            .<RankedMemory>comparingDouble(r -> rrf.get(r.memoryId()) + 1e-4 * r.status() + 1e-4 * r.recency())
            .reversed()
            .thenComparing(RankedMemory::memoryId));
        return out;
    }

    /**
     * Of the given positions, the {@code n} with the best positive scores, best first,
     * ties by position: a bounded heap of positions, so a query whose words occur in most
     * of a large project does not sort all of it.
     */
    static List<Integer> topByScore(double[] scores, int[] positions, int n) {
        // a min-heap of positions, the worst (lowest score, then highest position) at the
        // root
        int[] heap = new int[Math.max(1, n)];
        int size = 0;
        for (int pos : positions) {
            if (scores[pos] <= 0 || n <= 0) {
                continue;
            }
            if (size < n) {
                heap[size] = pos;
                int i = size++;
                while (i > 0 && worse(scores, heap[i], heap[(i - 1) / 2])) {
                    swap(heap, i, (i - 1) / 2);
                    i = (i - 1) / 2;
                }
            }
            else if (worse(scores, heap[0], pos)) {
                heap[0] = pos;
                int i = 0;
                while (true) {
                    int l = 2 * i + 1;
                    int r = l + 1;
                    int worst = i;
                    if (l < size && worse(scores, heap[l], heap[worst])) {
                        worst = l;
                    }
                    if (r < size && worse(scores, heap[r], heap[worst])) {
                        worst = r;
                    }
                    if (worst == i) {
                        break;
                    }
                    swap(heap, i, worst);
                    i = worst;
                }
            }
        }
        List<Integer> hits = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            hits.add(heap[i]);
        }
        hits.sort((x, y) -> worse(scores, x, y) ? 1 : worse(scores, y, x) ? -1 : 0);
        return hits;
    }

    /**
     * A memory as ranking holds it: a few hundred thousand of them live in {@code serve}
     * for days.
     */
    private record Indexed(String memoryId, String kind, String status, long createdMicros) {

        MemoryDoc doc() {
            return new MemoryDoc(memoryId, kind, status, UtcMicros.toDateTime(createdMicros), "");
        }
    }

    /**
     * Whether position {@code a} ranks below {@code b}: a lower score, or the same score
     * and a later position.
     */
    private static boolean worse(double[] scores, int a, int b) {
        int c = Double.compare(scores[a], scores[b]);
        return c != 0 ? c < 0 : a > b;
    }

    private static void swap(int[] a, int i, int j) {
        int x = a[i];
        a[i] = a[j];
        a[j] = x;
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(1, v));
    }

}
