package dev.codememory.bench;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.ranking.VectorIndex;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recall@10 of the vector index {@code serve} searches, measured in the bench's process
 * on a home {@link QueryBench} built, before serve opens it: the project's active vectors
 * read from the table into a {@link VectorIndex} as serve reads them, with serve's
 * default exact limit ({@value VectorIndex#DEFAULT_EXACT_LIMIT}; past it the graph is
 * built here as serve builds it), searched for the bench's questions, against
 * <ul>
 * <li>an exact scan of the same int8 vectors (the same vectors in an index whose limit is
 * never reached, so it never builds a graph): the graph's recall;</li>
 * <li>DuckDB's exact scan of the table's float vectors: the graph's and the
 * quantization's together (and the int8 exact scan's alone).</li>
 * </ul>
 * Serve answers no request that shows its vector index alone (its searches are hybrid),
 * so this is the same class with the same settings on the same vectors, not serve's own
 * instance.
 */
final class VectorIndexRecall {

    static final int QUERIES = 100;

    private static final String ACTIVE = "active";

    private final PrintStream out;

    VectorIndexRecall(PrintStream out) {
        this.out = out;
    }

    void run(QueryBench.Fixture f, Embedder embedder) {
        int n = Math.min(QUERIES, f.questions().size());
        float[][] queries = embedder.embed(f.questions().subList(0, n));
        int k = QueryBench.TOP_K;
        List<List<String>> exact;
        List<List<String>> table;
        List<List<String>> found;
        long graphMs;
        int vectors;
        try (DuckDb.Session session = DuckDb.forHome(new CodeMemoryHome(f.root())).openReadOnly()) {
            DuckDbVectorStore store = new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION);
            int dimension = store.version().dimension();
            exact = search(load(store, f.project(), new VectorIndex(dimension, Integer.MAX_VALUE)), queries, k);
            table = new java.util.ArrayList<>();
            for (float[] query : queries) {
                table.add(ids(store.search(query, k, VectorFilter.project(f.project()))));
            }
            VectorIndex index = load(store, f.project(), new VectorIndex(dimension, VectorIndex.DEFAULT_EXACT_LIMIT));
            vectors = index.size();
            graphMs = index.needsGraph() ? index.buildGraph() : -1;
            found = search(index, queries, k);
        }
        int graph = 0;
        int quantized = 0;
        int overall = 0;
        for (int q = 0; q < n; q++) {
            Set<String> exactIds = new HashSet<>(exact.get(q));
            Set<String> tableIds = new HashSet<>(table.get(q));
            graph += (int) found.get(q).stream().filter(exactIds::contains).count();
            quantized += (int) exact.get(q).stream().filter(tableIds::contains).count();
            overall += (int) found.get(q).stream().filter(tableIds::contains).count();
        }
        double all = k * (double) n;
        out.printf("  vector index as serve builds it (%,d vectors, %s), in process: recall@%d over %d queries: %.3f"
                + " against an exact scan of its own (int8) vectors, %.3f against an exact scan of the float vectors"
                + " (that exact scan of the int8 vectors: %.3f)%n", vectors,
                graphMs < 0 ? "searched exactly up to " + VectorIndex.DEFAULT_EXACT_LIMIT
                        : String.format("graph built in %.1f s", graphMs / 1000.0),
                k, n, graph / all, overall / all, quantized / all);
    }

    private static VectorIndex load(DuckDbVectorStore store, String project, VectorIndex index) {
        store.read(project, ACTIVE, null, index::put);
        return index;
    }

    private static List<List<String>> search(VectorIndex index, float[][] queries, int k) {
        List<List<String>> hits = new java.util.ArrayList<>();
        for (float[] query : queries) {
            hits.add(ids(index.search(query, k)));
        }
        return hits;
    }

    private static List<String> ids(List<VectorHit> hits) {
        return hits.stream().map(VectorHit::memoryId).toList();
    }

}
