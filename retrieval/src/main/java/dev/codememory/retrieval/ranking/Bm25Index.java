package dev.codememory.retrieval.ranking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Okapi BM25 over an in-memory inverted index. Documents are added once (already
 * tokenized) and keep their insertion position; {@link #score} gives every document's
 * score for a query in that order. IDF is the non-negative Lucene form
 * {@code ln(1 + (N - df + 0.5) / (df + 0.5))}; a query term counts once however often it
 * is repeated.
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
     * Removes documents: their postings go, their lengths leave the average, and they no
     * longer count in N, so scores are those of an index built without them. Their
     * positions stay taken (scored 0). One pass over every posting, whatever the number
     * removed: the index keeps no terms per document, which would cost as much memory as
     * the postings themselves.
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

    /** Whether some live document holds the term. */
    public boolean holds(String term) {
        Postings p = postings.get(term);
        return p != null && p.size > 0;
    }

    public double idf(String term) {
        Postings p = postings.get(term);
        int df = p == null ? 0 : p.size;
        return Math.log(1 + (live - df + 0.5) / (df + 0.5));
    }

    /**
     * Sums, by document position, each document's BM25 score for the query terms into
     * {@code sums.first} and the share of the query's IDF mass it holds
     * ({@link #coverage}) into {@code sums.second}, for the documents holding at least
     * one of the terms; lists those in {@code sums.touched} and returns how many. Work in
     * proportion to the terms' postings, not to the index. The caller gives the sums back
     * ({@link PositionSums#give}) with that count.
     */
    int match(List<String> queryTerms, PositionSums sums) {
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
            return 0;
        }
        double avgdl = Math.max(1e-9, (double) totalLength / live);
        double[] bm25 = sums.first;
        double[] covered = sums.second;
        int n = 0;
        for (Map.Entry<String, Postings> e : found.entrySet()) {
            Postings p = e.getValue();
            double idf = idf(e.getKey()); // > 0: a document seen has covered > 0
            for (int i = 0; i < p.size; i++) {
                int doc = p.data[2 * i];
                double tf = p.data[2 * i + 1];
                if (covered[doc] == 0) {
                    sums.touch(n++, doc);
                }
                double norm = k1 * (1 - b + b * lengths[doc] / avgdl);
                bm25[doc] += idf * tf * (k1 + 1) / (tf + norm);
                covered[doc] += idf;
            }
        }
        for (int i = 0; i < n && totalIdf > 0; i++) {
            covered[sums.touched[i]] /= totalIdf;
        }
        return n;
    }

    /**
     * The BM25 score of every document for the query terms, by document position (0 where
     * nothing matched).
     */
    public double[] score(List<String> queryTerms) {
        return dense(queryTerms, true);
    }

    /**
     * The share of the query's IDF mass that a document contains, in [0, 1]: 1 when every
     * distinct query term occurs in it. Unlike the raw BM25 score this is comparable
     * across queries, which the fused score needs.
     */
    public double[] coverage(List<String> queryTerms) {
        return dense(queryTerms, false);
    }

    private double[] dense(List<String> queryTerms, boolean scores) {
        double[] out = new double[ids.size()];
        PositionSums sums = PositionSums.take(ids.size());
        int n = 0;
        try {
            n = match(queryTerms, sums);
            for (int i = 0; i < n; i++) {
                int doc = sums.touched[i];
                out[doc] = scores ? sums.first[doc] : sums.second[doc];
            }
            return out;
        }
        finally {
            sums.give(n);
        }
    }

    /**
     * {@link #coverage} for a text outside the index, given its distinct terms, with this
     * index's IDF.
     */
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
     * One term's postings as (document, term frequency) pairs in one growing int array,
     * in the order documents were added: 8 bytes a posting instead of an object each (a
     * 100k-memory project holds millions).
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
