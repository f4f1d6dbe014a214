package dev.codememory.processors.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Okapi BM25 over an in-memory inverted index. Documents are added once (already tokenized) and keep their insertion
 * position; {@link #score} gives every document's score for a query in that order. IDF is the non-negative
 * Lucene form {@code ln(1 + (N - df + 0.5) / (df + 0.5))}; a query term counts once however often it is repeated.
 */
public final class Bm25Index {

    public static final double DEFAULT_K1 = 1.2;
    public static final double DEFAULT_B = 0.75;

    private final double k1;
    private final double b;
    private final Map<String, Postings> postings = new HashMap<>();
    private final List<String> ids = new ArrayList<>();
    private int[] lengths = new int[16];
    private long totalLength;
    private int live;

    public Bm25Index() {
        this(DEFAULT_K1, DEFAULT_B);
    }

    public Bm25Index(double k1, double b) {
        if (k1 < 0 || b < 0 || b > 1) {
            throw new IllegalArgumentException("BM25 needs k1 >= 0 and 0 <= b <= 1, was k1=" + k1 + " b=" + b);
        }
        this.k1 = k1;
        this.b = b;
    }

    /** Adds a document; returns its position. */
    public int add(String id, List<String> terms) {
        int doc = ids.size();
        ids.add(id);
        if (doc == lengths.length) {
            lengths = Arrays.copyOf(lengths, doc * 2);
        }
        lengths[doc] = terms.size();
        totalLength += terms.size();
        live++;
        Map<String, Integer> tf = new HashMap<>();
        for (String t : terms) {
            tf.merge(t, 1, Integer::sum);
        }
        tf.forEach((term, count) -> postings.computeIfAbsent(term, k -> new Postings()).add(doc, count));
        return doc;
    }

    /**
     * Removes documents: their postings go, their lengths leave the average, and they no longer count in N, so scores
     * are those of an index built without them. Their positions stay taken (scored 0). One pass over every posting,
     * whatever the number removed: the index keeps no terms per document, which would cost as much memory as the
     * postings themselves.
     */
    public void remove(java.util.Collection<Integer> docs) {
        java.util.BitSet gone = new java.util.BitSet(ids.size());
        for (int doc : docs) {
            if (doc < ids.size() && lengths[doc] >= 0) {
                gone.set(doc);
                totalLength -= lengths[doc];
                lengths[doc] = -1;
                live--;
            }
        }
        if (gone.isEmpty()) {
            return;
        }
        postings.values().removeIf(p -> {
            p.removeAll(gone);
            return p.size == 0;
        });
    }

    /** Positions handed out, removed documents included. */
    public int size() {
        return ids.size();
    }

    /** Documents present. */
    public int liveSize() {
        return live;
    }

    public String id(int doc) {
        return ids.get(doc);
    }

    public double idf(String term) {
        Postings p = postings.get(term);
        int df = p == null ? 0 : p.size;
        return Math.log(1 + (live - df + 0.5) / (df + 0.5));
    }

    /**
     * The documents holding at least one of the query terms, each once, with their BM25 score and the share of the
     * query's IDF mass they hold ({@link #coverage}); in no particular order.
     */
    public record Matches(int[] docs, double[] bm25, double[] coverage) {

        public int size() {
            return docs.length;
        }
    }

    /** {@link Matches} for the query terms: work in proportion to their postings, not to the index. */
    public Matches match(List<String> queryTerms) {
        Map<String, Postings> found = new java.util.LinkedHashMap<>();
        double totalIdf = 0;
        for (String term : new LinkedHashSet<>(queryTerms)) {
            totalIdf += idf(term);
            Postings p = postings.get(term);
            if (p != null) {
                found.put(term, p);
            }
        }
        if (found.isEmpty() || live == 0) {
            return new Matches(new int[0], new double[0], new double[0]);
        }
        double avgdl = Math.max(1e-9, (double) totalLength / live);
        // sums by document position in lent arrays, cleared again for the documents touched
        PositionSums scratch = PositionSums.take(ids.size());
        double[] bm25 = scratch.first;
        double[] covered = scratch.second;
        int n = 0;
        try {
            for (Map.Entry<String, Postings> e : found.entrySet()) {
                Postings p = e.getValue();
                double idf = idf(e.getKey()); // > 0: a document seen has covered > 0
                for (int i = 0; i < p.size; i++) {
                    int doc = p.data[2 * i];
                    double tf = p.data[2 * i + 1];
                    if (covered[doc] == 0) {
                        scratch.touch(n++, doc);
                    }
                    double norm = k1 * (1 - b + b * lengths[doc] / avgdl);
                    bm25[doc] += idf * tf * (k1 + 1) / (tf + norm);
                    covered[doc] += idf;
                }
            }
            int[] docs = Arrays.copyOf(scratch.touched, n);
            double[] scores = new double[n];
            double[] coverage = new double[n];
            for (int i = 0; i < n; i++) {
                scores[i] = bm25[docs[i]];
                coverage[i] = totalIdf > 0 ? covered[docs[i]] / totalIdf : 0;
            }
            return new Matches(docs, scores, coverage);
        } finally {
            scratch.give(n);
        }
    }

    /** The BM25 score of every document for the query terms, by document position (0 where nothing matched). */
    public double[] score(List<String> queryTerms) {
        double[] scores = new double[ids.size()];
        Matches m = match(queryTerms);
        for (int i = 0; i < m.size(); i++) {
            scores[m.docs()[i]] = m.bm25()[i];
        }
        return scores;
    }

    /**
     * The share of the query's IDF mass that a document contains, in [0, 1]: 1 when every distinct query term
     * occurs in it. Unlike the raw BM25 score this is comparable across queries, which the fused score needs.
     */
    public double[] coverage(List<String> queryTerms) {
        double[] covered = new double[ids.size()];
        Matches m = match(queryTerms);
        for (int i = 0; i < m.size(); i++) {
            covered[m.docs()[i]] = m.coverage()[i];
        }
        return covered;
    }

    /** {@link #coverage} for a text outside the index, given its distinct terms, with this index's IDF. */
    public double coverage(List<String> queryTerms, java.util.Set<String> textTerms) {
        double covered = 0;
        double total = 0;
        for (String term : new LinkedHashSet<>(queryTerms)) {
            double idf = idf(term);
            total += idf;
            if (textTerms.contains(term)) {
                covered += idf;
            }
        }
        return total > 0 ? covered / total : 0;
    }

    /**
     * One term's postings as (document, term frequency) pairs in one growing int array, in the order documents were
     * added: 8 bytes a posting instead of an object each (a 100k-memory project holds millions).
     */
    private static final class Postings {

        int[] data = new int[4];
        int size;

        void add(int doc, int tf) {
            if (2 * size == data.length) {
                data = Arrays.copyOf(data, data.length * 2);
            }
            data[2 * size] = doc;
            data[2 * size + 1] = tf;
            size++;
        }

        /** Drops the postings of these documents, keeping the others in order. */
        void removeAll(java.util.BitSet docs) {
            int kept = 0;
            for (int i = 0; i < size; i++) {
                if (!docs.get(data[2 * i])) {
                    data[2 * kept] = data[2 * i];
                    data[2 * kept + 1] = data[2 * i + 1];
                    kept++;
                }
            }
            size = kept;
        }
    }
}
