package dev.codememory.retrieval.ranking;

import dev.codememory.config.vector.VectorHit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

/**
 * One project's memory vectors in memory, searched by cosine similarity: exactly (every
 * vector scored) while there are at most {@code exactLimit} of them, through an HNSW
 * graph (Lucene's {@link HnswGraphBuilder}) past that.
 *
 * <p>
 * Vectors are stored L2-normalised, so the cosine is their dot product, and quantized to
 * one signed byte per dimension with a scale per vector (its largest component maps to
 * 127): a quarter of the memory of floats (100k vectors of 384 dimensions: 39 MB instead
 * of 154 MB), for a cosine that differs from the float one by about 0.001 (at most
 * {@value #MAX_QUANTIZATION_ERROR} in {@code VectorIndexTests}) — far below the gaps
 * between the memories a query ranks. A query is scored in floats against the bytes. The
 * graph is built by {@link #buildGraph()} (the caller runs it off the query path: ~95 s
 * for 100k vectors of 384 dimensions on one core) and then kept up to date as vectors are
 * added; until it is built, searches stay exact. A removed vector is left in the graph
 * (HNSW has no cheap delete) and never returned. Whatever way a candidate was found, its
 * score is the same cosine of the query with the stored bytes, so both ways rank the same
 * vectors the same.
 *
 * <p>
 * Graph parameters, chosen by measurement (on float vectors) on the query bench's 100k
 * memories (vectors clustered around 256 subjects, the asked-about memories and the
 * queries the model's own vectors; top 10): max connections {@value #MAX_CONN}, beam
 * width {@value #BEAM_WIDTH} at build (57 s) and a search beam of at least
 * {@value #SEARCH_BEAM} gave recall@10 0.969 against exact search at 3.0 ms per query
 * (exact: 56 ms); a search beam of 100, 200, 400 gave 0.752, 0.838, 0.928. Twice the
 * connections and build beam reach 0.961 at a search beam of 200 but take three times as
 * long to build (176 s).
 *
 * <p>
 * The search beam grows with the graph past {@value #BEAM_GROWS_PAST} vectors, in
 * proportion, up to {@value #MAX_SEARCH_BEAM}: at a million memories shaped like real
 * ones (the query bench's), recall@10 against an exact scan of the same int8 vectors was
 * 0.936 at a beam of 800 (6.5 ms per query), 0.945 at 1,600 (9 ms), 0.956 at 2,400 (11
 * ms) and 0.974 at 3,200 (14 ms).
 *
 * <p>
 * Thread-safe: searches share a read lock, additions and removals take the write lock.
 */
public final class VectorIndex {

    /** Up to this many vectors, searches score every vector. */
    public static final int DEFAULT_EXACT_LIMIT = 20_000;
    static final int MAX_CONN = 16;
    static final int BEAM_WIDTH = 100;
    static final int SEARCH_BEAM = 800;
    static final int BEAM_GROWS_PAST = 250_000;
    static final int MAX_SEARCH_BEAM = 3_200;

    private static final long SEED = 42;

    private final int dimension;

    private final int exactLimit;

    /** The largest difference, in tests, between a quantized cosine and the float one. */
    static final double MAX_QUANTIZATION_ERROR = 0.01;

    private final Slots vectors;

    private final List<String> ids = new ArrayList<>();

    private final Map<String, Integer> ordinals = new HashMap<>();

    private final BitSet removed = new BitSet();

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

    private HnswGraphBuilder builder;

    private OnHeapHnswGraph graph;

    public VectorIndex(int dimension) {
        this(dimension, DEFAULT_EXACT_LIMIT);
    }

    public VectorIndex(int dimension, int exactLimit) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be positive, was " + dimension);
        }
        this.dimension = dimension;
        this.exactLimit = exactLimit;
        this.vectors = new Slots(dimension);
    }

    /** Adds a vector, or replaces the vector of an id already there. */
    public void put(String id, float[] vector) {
        if (vector.length != dimension) {
            throw new IllegalArgumentException(
                    "vector of " + id + " has " + vector.length + " dimensions, the index " + dimension);
        }
        float[] unit = unit(vector);
        byte[] codes = new byte[dimension];
        float scale = quantize(unit, codes);
        lock.writeLock().lock();
        try {
            Integer old = ordinals.get(id);
            if (old != null) {
                removed.set(old);
            }
            int ord = vectors.size();
            vectors.add(codes, scale);
            ids.add(id);
            ordinals.put(id, ord);
            if (builder != null) {
                builder.addGraphNode(ord);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot add " + id + " to the vector graph", e);
        }
        finally {
            lock.writeLock().unlock();
        }
    }

    public void remove(Collection<String> memoryIds) {
        lock.writeLock().lock();
        try {
            for (String id : memoryIds) {
                Integer ord = ordinals.remove(id);
                if (ord != null) {
                    removed.set(ord);
                }
            }
        }
        finally {
            lock.writeLock().unlock();
        }
    }

    /** The ids of the live vectors. */
    public java.util.Set<String> ids() {
        lock.readLock().lock();
        try {
            return new java.util.HashSet<>(ordinals.keySet());
        }
        finally {
            lock.readLock().unlock();
        }
    }

    public boolean contains(String id) {
        lock.readLock().lock();
        try {
            return ordinals.containsKey(id);
        }
        finally {
            lock.readLock().unlock();
        }
    }

    /** Live vectors. */
    public int size() {
        lock.readLock().lock();
        try {
            return ordinals.size();
        }
        finally {
            lock.readLock().unlock();
        }
    }

    public int dimension() {
        return dimension;
    }

    /**
     * Whether searches past the exact limit should go through a graph that is not built
     * yet.
     */
    public boolean needsGraph() {
        lock.readLock().lock();
        try {
            return graph == null && ordinals.size() > exactLimit;
        }
        finally {
            lock.readLock().unlock();
        }
    }

    public boolean hasGraph() {
        lock.readLock().lock();
        try {
            return graph != null;
        }
        finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Builds the graph over the vectors present now, without blocking searches (they stay
     * exact meanwhile), then adds those that arrived during the build. Returns the build
     * time in milliseconds.
     */
    public long buildGraph() {
        long start = System.nanoTime();
        int count;
        lock.readLock().lock();
        try {
            if (graph != null) {
                return 0;
            }
            count = vectors.size();
        }
        finally {
            lock.readLock().unlock();
        }
        try {
            // vectors are only ever appended and an ordinal's vector never changes: the
            // build reads ordinals below
            // count while additions go on beside it, and the graph takes those additions
            // once it is done
            HnswGraphBuilder b = HnswGraphBuilder.create(new StoredScorers(), MAX_CONN, BEAM_WIDTH, SEED);
            OnHeapHnswGraph built = b.build(count);
            lock.writeLock().lock();
            try {
                for (int ord = count; ord < vectors.size(); ord++) {
                    b.addGraphNode(ord);
                }
                builder = b;
                graph = built;
            }
            finally {
                lock.writeLock().unlock();
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot build the vector graph", e);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** The {@code k} live vectors most similar to the query, best first (ties by id). */
    public List<VectorHit> search(float[] query, int k) {
        return search(query, k, searchBeam(vectors.size()));
    }

    /** The search beam for a graph of {@code size} vectors (see the class comment). */
    static int searchBeam(int size) {
        return (int) Math.min(MAX_SEARCH_BEAM, Math.max(SEARCH_BEAM, (long) SEARCH_BEAM * size / BEAM_GROWS_PAST));
    }

    /**
     * {@link #search(float[], int)} with another search beam through the graph (for
     * measuring).
     */
    List<VectorHit> search(float[] query, int k, int beam) {
        if (query.length != dimension) {
            throw new IllegalArgumentException("query has " + query.length + " dimensions, the index " + dimension);
        }
        float[] q = unit(query);
        lock.readLock().lock();
        try {
            if (graph == null || ordinals.size() <= exactLimit) {
                return exact(q, k);
            }
            return approximate(q, k, beam);
        }
        finally {
            lock.readLock().unlock();
        }
    }

    /** Every live vector scored: the reference the graph is measured against. */
    List<VectorHit> exactSearch(float[] query, int k) {
        float[] q = unit(query);
        lock.readLock().lock();
        try {
            return exact(q, k);
        }
        finally {
            lock.readLock().unlock();
        }
    }

    private List<VectorHit> exact(float[] q, int k) {
        PriorityQueue<Scored> best = new PriorityQueue<>(k + 1, Scored.WORST_FIRST);
        for (int ord = 0; ord < vectors.size(); ord++) {
            if (removed.get(ord)) {
                continue;
            }
            float score = vectors.dot(q, ord);
            if (best.size() < k) {
                best.add(new Scored(ord, score));
            }
            else if (Scored.WORST_FIRST.compare(new Scored(ord, score), best.peek()) > 0) {
                best.poll();
                best.add(new Scored(ord, score));
            }
        }
        return hits(best);
    }

    private List<VectorHit> approximate(float[] q, int k, int beam) {
        try {
            int size = vectors.size();
            RandomVectorScorer scorer = scorer(size, node -> vectors.dot(q, node));
            Bits live = new Bits() {
                @Override
                public boolean get(int index) {
                    return !removed.get(index);
                }

                @Override
                public int length() {
                    return size;
                }
            };
            ScoreDoc[] found = HnswGraphSearcher.search(scorer, Math.max(k, beam), graph, live, Integer.MAX_VALUE)
                .topDocs().scoreDocs;
            PriorityQueue<Scored> best = new PriorityQueue<>(k + 1, Scored.WORST_FIRST);
            for (ScoreDoc d : found) { // best first: the k best, ties kept in ordinal
                                       // order as exact search keeps them
                Scored s = new Scored(d.doc, cosine(d.score));
                if (best.size() < k) {
                    best.add(s);
                }
                else if (Scored.WORST_FIRST.compare(s, best.peek()) > 0) {
                    best.poll();
                    best.add(s);
                }
            }
            return hits(best);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot search the vector graph", e);
        }
    }

    /** The cosine of some vector with each of the first {@code size} stored ones. */
    private interface Cosines {

        float with(int node);

    }

    /**
     * A scorer of the first {@code size} stored vectors for the graph, by their cosine
     * with some vector.
     */
    private static RandomVectorScorer scorer(int size, Cosines cosines) {
        return new RandomVectorScorer() {
            @Override
            public float score(int node) {
                return similarity(cosines.with(node));
            }

            @Override
            public int maxOrd() {
                return size;
            }
        };
    }

    /** The graph's score of a cosine: in [0, 1], higher is closer, as the graph needs. */
    private static float similarity(float cosine) {
        return Math.max(0, (1 + cosine) / 2);
    }

    private static float cosine(float similarity) {
        return 2 * similarity - 1;
    }

    private List<VectorHit> hits(PriorityQueue<Scored> best) {
        List<VectorHit> out = new ArrayList<>(best.size());
        List<Scored> sorted = new ArrayList<>(best);
        sorted.sort(Scored.WORST_FIRST.reversed());
        for (Scored s : sorted) {
            out.add(new VectorHit(ids.get(s.ord()), s.score()));
        }
        return out;
    }

    /**
     * A candidate; worse = lower score, then the later ordinal (so ties keep the earlier
     * vector).
     */
    private record Scored(int ord, float score) {
        static final java.util.Comparator<Scored> WORST_FIRST = (a, b) -> a.score != b.score
                ? Float.compare(a.score, b.score) : Integer.compare(b.ord, a.ord);

    }

    static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float[] out = new float[v.length];
        if (norm == 0) {
            return out;
        }
        float k = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * k;
        }
        return out;
    }

    /**
     * Writes {@code v}'s components as signed bytes, its largest in magnitude as ±127,
     * and returns the scale that turns a byte back into the component
     * ({@code v[i] ≈ codes[i] × scale}).
     */
    static float quantize(float[] v, byte[] codes) {
        float max = 0;
        for (float x : v) {
            max = Math.max(max, Math.abs(x));
        }
        if (max == 0) {
            java.util.Arrays.fill(codes, (byte) 0);
            return 0;
        }
        float scale = max / 127;
        for (int i = 0; i < v.length; i++) {
            codes[i] = (byte) Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
        }
        return scale;
    }

    /** Two stored vectors scored against each other, for the graph's build. */
    private final class StoredScorers implements RandomVectorScorerSupplier {

        @Override
        public RandomVectorScorer scorer(int ord) {
            return VectorIndex.scorer(vectors.size(), node -> vectors.dot(ord, node));
        }

        @Override
        public RandomVectorScorerSupplier copy() {
            return this;
        }

    }

    /**
     * Append-only quantized vector slots, {@value #CHUNK} vectors to a chunk of bytes,
     * that a reader may read below {@link #size()} while a writer appends: chunks are
     * never moved, and the size is published after the slot is written.
     */
    private static final class Slots {

        private static final int CHUNK = 1024;

        private final int dimension;

        private volatile byte[][] codes = new byte[16][];

        private volatile float[][] scales = new float[16][];

        private volatile int size;

        Slots(int dimension) {
            this.dimension = dimension;
        }

        int size() {
            return size;
        }

        /** The cosine of a unit query with stored vector {@code ord}. */
        float dot(float[] query, int ord) {
            byte[] chunk = codes[ord / CHUNK];
            int offset = (ord % CHUNK) * dimension;
            // four sums: one would make every addition wait for the last (a graph search
            // scores ~10k vectors)
            float s0 = 0;
            float s1 = 0;
            float s2 = 0;
            float s3 = 0;
            int i = 0;
            for (; i + 3 < dimension; i += 4) {
                s0 += query[i] * chunk[offset + i];
                s1 += query[i + 1] * chunk[offset + i + 1];
                s2 += query[i + 2] * chunk[offset + i + 2];
                s3 += query[i + 3] * chunk[offset + i + 3];
            }
            for (; i < dimension; i++) {
                s0 += query[i] * chunk[offset + i];
            }
            return (s0 + s1 + s2 + s3) * scales[ord / CHUNK][ord % CHUNK];
        }

        /** The cosine of stored vectors {@code a} and {@code b}. */
        float dot(int a, int b) {
            byte[] ca = codes[a / CHUNK];
            byte[] cb = codes[b / CHUNK];
            int oa = (a % CHUNK) * dimension;
            int ob = (b % CHUNK) * dimension;
            int s = 0;
            for (int i = 0; i < dimension; i++) {
                s += ca[oa + i] * cb[ob + i];
            }
            return s * scales[a / CHUNK][a % CHUNK] * scales[b / CHUNK][b % CHUNK];
        }

        /** Only under the owner's write lock. */
        void add(byte[] vector, float scale) {
            int ord = size;
            byte[][] currentCodes = codes;
            float[][] currentScales = scales;
            if (ord / CHUNK == currentCodes.length) {
                currentCodes = java.util.Arrays.copyOf(currentCodes, currentCodes.length * 2);
                currentScales = java.util.Arrays.copyOf(currentScales, currentScales.length * 2);
            }
            if (currentCodes[ord / CHUNK] == null) {
                currentCodes[ord / CHUNK] = new byte[CHUNK * dimension];
                currentScales[ord / CHUNK] = new float[CHUNK];
            }
            System.arraycopy(vector, 0, currentCodes[ord / CHUNK], (ord % CHUNK) * dimension, dimension);
            currentScales[ord / CHUNK][ord % CHUNK] = scale;
            codes = currentCodes;
            scales = currentScales;
            size = ord + 1;
        }

    }

}
