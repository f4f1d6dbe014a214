package dev.codememory.jobs.serve;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.db.Sql;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.context.HookContext;
import dev.codememory.retrieval.context.PromptContextService;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.context.SessionStartContextService;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.ranking.VectorIndex;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code serve} keeps warm for the hook and the delegated commands: the database
 * session it owns, the embedding model, and one {@link QueryService} whose per-project
 * BM25 indexes and vectors stay in memory. Started by serve (the model loads and the
 * projects are indexed on a background thread, the largest first), refreshed in place
 * after every job it runs, so a graduation's new memories are found by the next prompt.
 * {@link MemoryHousekeeping} gives back what warming up, jobs and answers took.
 */
public class ResidentQueries {

    private static final Logger log = LoggerFactory.getLogger(ResidentQueries.class);

    private final JobDatabase database;

    private final VectorComponents components;

    private final EmbeddingService embeddings;

    private final int exactLimit;

    private volatile DuckDb.Session session;

    private volatile QueryService service;

    private volatile ResidentVectors residentVectors;

    private volatile VectorStore store;

    private volatile boolean warm;

    private final MemoryHousekeeping housekeeping = new MemoryHousekeeping(() -> session, () -> warm);

    public ResidentQueries(JobDatabase database, VectorComponents components, EmbeddingService embeddings,
            int exactLimit) {
        this.database = database;
        this.components = components;
        this.embeddings = embeddings;
        this.exactLimit = exactLimit;
    }

    /** Takes the database for good and starts warming up in the background. */
    public synchronized void start() {
        housekeeping.keepHeapNearLive();
        session = database.hold();
        if (components.milvus()) {
            store = new Unclosable(components.vectorStore(session::connection));
        }
        else {
            residentVectors = new ResidentVectors(new DuckDbVectorStore(session::connection, components.version()),
                    exactLimit);
            store = residentVectors;
        }
        service = queryService(RankingSettings.defaults());
        Thread warmUp = new Thread(this::warmUp, "code-memory-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
        housekeeping.watchIdle();
    }

    /**
     * No idle compaction while a job runs (it gives back what it took when it ends, see
     * {@link #refresh}).
     */
    public void skipCompactionWhile(BooleanSupplier jobRunning) {
        housekeeping.skipCompactionWhile(jobRunning);
    }

    /**
     * A request other than a ping was answered: the heap and DuckDB's cache may have
     * grown for it.
     */
    public void answered() {
        housekeeping.answered();
    }

    private void warmUp() {
        long start = System.nanoTime();
        try {
            service.connectTeam();
            embeddings.embedder().embed(List.of("warm up"));
            log.info("embedding model {} loaded in {} ms", components.version().id(),
                    (System.nanoTime() - start) / 1_000_000);
            for (String project : projects()) {
                long t = System.nanoTime();
                int n = service.prepare(project);
                if (residentVectors != null) {
                    residentVectors.index(project);
                }
                log.info("indexed {} memories of a project in {} ms", n, (System.nanoTime() - t) / 1_000_000);
            }
        }
        catch (RuntimeException e) {
            log.warn("warming up failed; the first queries will load what they need: {}", e.getMessage());
        }
        warm = true;
        log.info("warm in {} ms", (System.nanoTime() - start) / 1_000_000);
        housekeeping.returnMemory();
    }

    /**
     * Whether the model is loaded, every project indexed and every vector graph built.
     */
    public boolean warm() {
        return warm && (residentVectors == null || residentVectors.pendingGraphs() == 0);
    }

    /** Projects with verified, active memories, the largest first. */
    private List<String> projects() {
        try (Connection c = session.connection()) {
            return Sql.list(c, "SELECT project FROM entries WHERE stage = 'verified' AND status = 'active'"
                    + " GROUP BY project ORDER BY count(*) DESC, project", rs -> rs.getString(1));
        }
        catch (SQLException e) {
            log.warn("cannot list projects: {}", e.getMessage());
            return List.of();
        }
    }

    /**
     * Brings the team memories of every index up to date with the team store (they change
     * without a job here); nothing when team memory is off.
     */
    public void refreshTeam() {
        QueryService current = service;
        if (current == null || !components.team().enabled()) {
            return;
        }
        int added = 0;
        int removed = 0;
        for (String project : current.preparedProjects()) {
            QueryService.Refresh r = current.refreshTeam(project);
            added += r.added();
            removed += r.removed();
        }
        if (added + removed > 0) {
            log.info("team memories refreshed: {} added, {} removed", added, removed);
        }
    }

    /**
     * Brings every index up to date with the database (after a job), then gives back what
     * the job took, also when a refresh fails (the next one retries it: each compares
     * what it holds with the tables).
     */
    public void refresh() {
        QueryService current = service;
        if (current == null) {
            return;
        }
        long start = System.nanoTime();
        int added = 0;
        int removed = 0;
        try {
            for (String project : current.preparedProjects()) {
                QueryService.Refresh r = current.refresh(project);
                added += r.added();
                removed += r.removed();
                if (residentVectors != null && project != null) {
                    int[] v = residentVectors.refresh(project);
                    log.debug("vectors of a project: +{} -{}", v[0], v[1]);
                }
            }
            log.info("indexes refreshed: {} memories added, {} removed, in {} ms", added, removed,
                    (System.nanoTime() - start) / 1_000_000);
        }
        finally {
            housekeeping.returnMemory();
        }
    }

    /**
     * The hook's context services, warm: serve's session, query service and loaded model.
     */
    public HookContext.Services hookServices() {
        DuckDb.Session s = session;
        QueryService q = service;
        Supplier<Embedder> model = embeddings::embedder;
        return new HookContext.Services() {
            @Override
            public PromptContextService prompts() {
                return new PromptContextService(() -> new PromptContextService.QueryLease(SessionLease.lent(s), q),
                        model, true);
            }

            @Override
            public SessionStartContextService sessionStarts() {
                return new SessionStartContextService(() -> SessionLease.lent(s), project -> q == null ? List.of()
                        : q.teamMemories(project, SessionStartContextService.TEAM_WAIT));
            }

            @Override
            public String source() {
                return "serve";
            }
        };
    }

    /**
     * The warm service for default settings; otherwise a new one on serve's session and
     * store (the caller closes).
     */
    public QueryService queryService(RankingSettings settings) {
        if (settings.equals(RankingSettings.defaults()) && service != null) {
            return service;
        }
        DuckDb.Session s = session;
        return new QueryService(s, () -> new UnclosableEmbedder(embeddings.embedder()), () -> store, settings)
            .withTeam(components.teamSource());
    }

    public DuckDb.Session session() {
        return session;
    }

    public synchronized void stop() {
        housekeeping.stop();
        if (residentVectors != null) {
            residentVectors.shutdown();
        }
        if (store instanceof Unclosable u) {
            u.delegate.close();
        }
        database.release();
    }

    /**
     * The process's one model, lent to query services that close what they were given.
     */
    private record UnclosableEmbedder(Embedder delegate) implements Embedder {

        @Override
        public EmbeddingVersion version() {
            return delegate.version();
        }

        @Override
        public float[][] embed(List<String> texts) {
            return delegate.embed(texts);
        }

        @Override
        public void close() {
        }
    }

    /** The process's one Milvus client, lent likewise. */
    private record Unclosable(VectorStore delegate) implements VectorStore {

        @Override
        public void ensureReady() {
            delegate.ensureReady();
        }

        @Override
        public EmbeddingVersion version() {
            return delegate.version();
        }

        @Override
        public void upsert(List<VectorRecord> records) {
            delegate.upsert(records);
        }

        @Override
        public void delete(Collection<String> memoryIds) {
            delegate.delete(memoryIds);
        }

        @Override
        public List<VectorHit> search(float[] query, int topK, VectorFilter filter) {
            return delegate.search(query, topK, filter);
        }

        @Override
        public long count() {
            return delegate.count();
        }

        @Override
        public java.util.Map<String, float[]> vectors(java.util.Collection<String> memoryIds) {
            return delegate.vectors(memoryIds);
        }

        @Override
        public void clear() {
            delegate.clear();
        }

        @Override
        public void close() {
        }
    }

    static int defaultExactLimit() {
        return VectorIndex.DEFAULT_EXACT_LIMIT;
    }

}
