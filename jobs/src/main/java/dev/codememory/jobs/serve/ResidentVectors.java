package dev.codememory.jobs.serve;

import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.retrieval.ranking.VectorIndex;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DuckDB vector store as {@code serve} searches it: each project's active vectors
 * held in memory ({@link VectorIndex}: exact up to its limit, a graph past it, built on a
 * background thread while searches stay exact), loaded on first use and brought up to
 * date by {@link #refresh} after each job. Searches it cannot answer from memory (no
 * project, kind or time filters) go to the table. Read-only: the embed step writes the
 * table.
 */
final class ResidentVectors implements VectorStore {

    private static final Logger log = LoggerFactory.getLogger(ResidentVectors.class);

    private static final String ACTIVE = "active";

    private final DuckDbVectorStore table;

    private final int exactLimit;

    private final Map<String, VectorIndex> projects = new ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.AtomicInteger pendingGraphs = new java.util.concurrent.atomic.AtomicInteger();

    private final ExecutorService graphs = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "code-memory-vector-graph");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
    });

    ResidentVectors(DuckDbVectorStore table, int exactLimit) {
        this.table = table;
        this.exactLimit = exactLimit;
    }

    @Override
    public List<VectorHit> search(float[] query, int topK, VectorFilter filter) {
        if (!filter.kinds().isEmpty() || filter.from() != null || filter.to() != null
                || !filter.statuses().equals(Set.of(ACTIVE))) {
            return table.search(query, topK, filter);
        }
        if (filter.project() == null) {
            return acrossProjects(query, topK);
        }
        return index(filter.project()).search(query, topK);
    }

    /**
     * Every project's nearest, merged by score (the viewer's search across projects):
     * each project's index answers from memory, where an exact scan of the whole table
     * takes a quarter of a second at 100k vectors.
     */
    private List<VectorHit> acrossProjects(float[] query, int topK) {
        List<VectorHit> hits = new java.util.ArrayList<>();
        for (String project : table.projects(ACTIVE)) {
            hits.addAll(index(project).search(query, topK));
        }
        hits.sort(java.util.Comparator.comparingDouble(VectorHit::score).reversed().thenComparing(VectorHit::memoryId));
        return hits.size() > topK ? List.copyOf(hits.subList(0, topK)) : hits;
    }

    /** The project's index, loaded from the table on first use. */
    VectorIndex index(String project) {
        return projects.computeIfAbsent(project, p -> {
            long start = System.nanoTime();
            VectorIndex index = new VectorIndex(table.version().dimension(), exactLimit);
            table.read(p, ACTIVE, null, index::put);
            log.info("loaded {} vectors of a project in {} ms", index.size(), (System.nanoTime() - start) / 1_000_000);
            buildGraphIfNeeded(index);
            return index;
        });
    }

    /**
     * Adds the project's new active vectors and drops those no longer active; returns
     * (added, removed).
     */
    int[] refresh(String project) {
        VectorIndex index = projects.get(project);
        if (index == null) {
            return new int[] { 0, 0 };
        }
        Set<String> now = table.ids(project, ACTIVE);
        Set<String> held = index.ids();
        List<String> added = now.stream().filter(id -> !held.contains(id)).toList();
        List<String> removed = held.stream().filter(id -> !now.contains(id)).toList();
        if (!added.isEmpty()) {
            table.read(project, ACTIVE, added, index::put);
        }
        index.remove(removed);
        buildGraphIfNeeded(index);
        return new int[] { added.size(), removed.size() };
    }

    /** Graphs queued or being built. */
    int pendingGraphs() {
        return pendingGraphs.get();
    }

    Set<String> projects() {
        return projects.keySet();
    }

    private void buildGraphIfNeeded(VectorIndex index) {
        if (index.needsGraph()) {
            pendingGraphs.incrementAndGet();
            graphs.submit(() -> {
                try {
                    long ms = index.buildGraph();
                    log.info("built the vector graph of {} vectors in {} ms", index.size(), ms);
                    ProcessMemory.returnGarbage();
                }
                catch (RuntimeException e) {
                    log.warn("cannot build a vector graph, searches stay exact: {}", e.getMessage());
                }
                finally {
                    pendingGraphs.decrementAndGet();
                }
            });
        }
    }

    @Override
    public void ensureReady() {
        table.ensureReady();
    }

    @Override
    public EmbeddingVersion version() {
        return table.version();
    }

    @Override
    public void upsert(List<VectorRecord> records) {
        throw new UnsupportedOperationException("the resident vectors are read-only; the embed step writes the table");
    }

    @Override
    public void delete(Collection<String> memoryIds) {
        throw new UnsupportedOperationException("the resident vectors are read-only; the embed step writes the table");
    }

    @Override
    public long count() {
        return table.count();
    }

    @Override
    public java.util.Map<String, float[]> vectors(java.util.Collection<String> memoryIds) {
        return table.vectors(memoryIds);
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException("the resident vectors are read-only; the embed step writes the table");
    }

    /**
     * Stays open for the life of the process: the query services that search it come and
     * go.
     */
    @Override
    public void close() {
    }

    void shutdown() {
        graphs.shutdownNow();
    }

}
