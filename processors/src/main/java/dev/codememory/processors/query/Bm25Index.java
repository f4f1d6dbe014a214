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
     * Removes a document added with these terms: its postings go, its length leaves the average, and it no longer
     * counts in N, so scores are those of an index built without it. Its position stays taken (scored 0).
     */
    public void remove(int doc, List<String> terms) {
        if (lengths[doc] < 0) {
            return;
        }
        for (String term : new LinkedHashSet<>(terms)) {
            Postings p = postings.get(term);
            if (p != null) {
                p.remove(doc);
                if (p.size == 0) {
                    postings.remove(term);
                }
            }
        }
        totalLength -= lengths[doc];
        lengths[doc] = -1;
        live--;
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

    /** The BM25 score of every document for the query terms, by document position (0 where nothing matched). */
    public double[] score(List<String> queryTerms) {
        double[] scores = new double[ids.size()];
        if (live == 0) {
            return scores;
        }
        double avgdl = Math.max(1e-9, (double) totalLength / live);
        for (String term : new LinkedHashSet<>(queryTerms)) {
            Postings p = postings.get(term);
            if (p == null) {
                continue;
            }
            double idf = idf(term);
            for (int i = 0; i < p.size; i++) {
                int doc = p.data[2 * i];
                double tf = p.data[2 * i + 1];
                double norm = k1 * (1 - b + b * lengths[doc] / avgdl);
                scores[doc] += idf * tf * (k1 + 1) / (tf + norm);
            }
        }
        return scores;
    }

    /**
     * The share of the query's IDF mass that a document contains, in [0, 1]: 1 when every distinct query term
     * occurs in it. Unlike the raw BM25 score this is comparable across queries, which the fused score needs.
     */
    public double[] coverage(List<String> queryTerms) {
        double[] covered = new double[ids.size()];
        double total = 0;
        for (String term : new LinkedHashSet<>(queryTerms)) {
            double idf = idf(term);
            total += idf;
            Postings p = postings.get(term);
            if (p != null) {
                for (int i = 0; i < p.size; i++) {
                    covered[p.data[2 * i]] += idf;
                }
            }
        }
        if (total > 0) {
            for (int i = 0; i < covered.length; i++) {
                covered[i] /= total;
            }
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

        void remove(int doc) {
            for (int i = 0; i < size; i++) {
                if (data[2 * i] == doc) {
                    System.arraycopy(data, 2 * i + 2, data, 2 * i, 2 * (size - i - 1));
                    size--;
                    return;
                }
            }
        }
    }
}
