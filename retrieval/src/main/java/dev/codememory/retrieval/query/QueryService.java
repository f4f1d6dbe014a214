package dev.codememory.retrieval.query;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.time.UtcMicros;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.query.ProjectCorpora.Corpus;
import dev.codememory.retrieval.query.ProjectCorpora.Held;
import dev.codememory.retrieval.query.SourceRanking.HitSources;
import dev.codememory.retrieval.ranking.HybridRanker;
import dev.codememory.retrieval.ranking.QueryTokenizer;
import dev.codememory.retrieval.ranking.RankedMemory;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.team.TeamSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one query path (CLI single and batch, the hooks, {@code serve}): loads a project's
 * verified memories once per process into an in-memory BM25 index together with their
 * source events, texts and citations, embeds the queries, asks the vector store for its
 * nearest memories, fuses the signals ({@link HybridRanker}) and attaches each result's
 * citation and ranked source events.
 *
 * <p>
 * The lexical index lives in memory rather than in DuckDB tables: building it is one scan
 * of the project's entries (measured on the 988 memories of the dev set: read 130 ms +
 * index 140 ms cold, 50 + 70 ms warm), so it is always in step with graduation and the
 * query path never writes to the database (a persisted index would need a write lock the
 * hook must not take). A short-lived process pays that scan per run; {@code serve} pays
 * it once and keeps the index up to date in place ({@link #refresh}).
 *
 * <p>
 * With a team store ({@link #withTeam}), a project's index also holds the memories the
 * rest of the team published for it, and its vector search asks the team's collection
 * too: local and team memories are ranked together, by one BM25 and one fusion, and a
 * team memory's result names its author. The team store is given
 * {@link TeamSource#waitLimit} on each read; down or slow, the answer comes from the
 * local store alone and the log says so.
 *
 * <p>
 * {@link ProjectCorpora} holds each project's index and memories; {@link SourceRanking}
 * ranks each result's source events; {@link TeamReads} reads the team store.
 */
public final class QueryService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryService.class);

    /** Where searches limited in time wait for the vector store; daemon threads. */
    static final ExecutorService VECTOR_SEARCHES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "code-memory-vector-search");
        t.setDaemon(true);
        return t;
    });

    private final Supplier<Embedder> embedderFactory;

    private final Supplier<VectorStore> vectorStores;

    private final RankingSettings settings;

    private volatile Embedder embedder;

    private volatile VectorStore vectors;

    private final TeamReads team = new TeamReads();

    private final SourceRanking sourceRanking;

    private final ProjectCorpora corpora;

    /**
     * @param vectorStores the vector store to search, created on the first query with a
     * vector (see {@code VectorComponents}); closed with this service
     */
    public QueryService(DuckDb.Session session, Supplier<Embedder> embedderFactory, Supplier<VectorStore> vectorStores,
            RankingSettings settings) {
        this.embedderFactory = embedderFactory;
        this.vectorStores = vectorStores;
        this.settings = settings;
        this.sourceRanking = new SourceRanking(session, settings);
        this.corpora = new ProjectCorpora(session, settings, team);
    }

    public RankingSettings settings() {
        return settings;
    }

    /**
     * Reads the team store beside the local one (null: local only); set before the first
     * query. The team source is closed with this service.
     */
    public QueryService withTeam(TeamSource team) {
        this.team.use(team);
        return this;
    }

    /**
     * Connects to the team store now (serve's warm-up), so that a new session's first
     * read of the team's memories does not pay for the connection within its short wait.
     */
    public void connectTeam() {
        team.connect();
    }

    /**
     * For log lines: {@code off} (no team store), {@code down} (its last read failed or
     * timed out: answers came from the local store alone) or {@code ok}.
     */
    public String teamState() {
        return team.state();
    }

    /** Answers queries in order; texts are embedded in batches. */
    public List<List<QueryResult>> search(List<QueryRequest> requests, int topK) {
        float[][] queryVectors = embed(requests.stream().map(QueryRequest::text).toList());
        List<List<QueryResult>> out = new ArrayList<>(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            out.add(search(requests.get(i), queryVectors == null ? null : queryVectors[i], topK));
        }
        return out;
    }

    /**
     * Answers one query with the band of its best result: what a front end needs to say
     * that nothing matches ({@link QueryAnswer}).
     */
    public QueryAnswer answer(QueryRequest request, int topK) {
        return answer(request, search(List.of(request), topK).get(0));
    }

    /**
     * The answer these hits of the request make: their band, and whether some memory of
     * the request's project holds a word of it ({@link QueryAnswer#nothingMatches}).
     */
    public QueryAnswer answer(QueryRequest request, List<QueryResult> hits) {
        return corpora.read(request.project(),
                corpus -> QueryAnswer.of(hits, corpus.ranker().holdsAnyOf(QueryTokenizer.tokenize(request.text()))));
    }

    /**
     * Loads and indexes the project's memories now (they are otherwise loaded by the
     * first query).
     */
    public int prepare(String project) {
        return corpora.prepare(project);
    }

    /** The projects whose memories are indexed (null: the all-projects index). */
    public Set<String> preparedProjects() {
        return corpora.projects();
    }

    /** What a {@link #refresh} changed in one project's index. */
    public record Refresh(String project, int added, int removed, int indexed) {
    }

    /**
     * Brings an indexed project up to date with the database in place (BM25 and the
     * ranker are incremental): new verified, active memories are added, those no longer
     * active removed. The reads happen before the write lock, so queries go on meanwhile.
     * A project not indexed yet is left to its first query.
     */
    public Refresh refresh(String project) {
        return corpora.refresh(project);
    }

    /**
     * What teammates published for the project, as the team store has it now, waiting at
     * most {@code most}; empty when team memory is off or the store does not answer in
     * time (logged).
     */
    public List<TeamMemory> teamMemories(String project, Duration most) {
        List<TeamMemory> now = team.await(team.memories(project), most);
        return now == null ? List.of() : now;
    }

    /**
     * Brings the team memories of an indexed project up to date with the team store,
     * leaving the local ones as they are: what others published or withdrew since the
     * index was made. A team store that does not answer changes nothing.
     */
    public Refresh refreshTeam(String project) {
        return corpora.refreshTeam(project);
    }

    /**
     * Answers one query with a vector embedded by the caller, or none ({@code null}:
     * ranked on the other signals, see {@link HybridRanker#rank}).
     */
    public List<QueryResult> search(QueryRequest request, float[] queryVector, int topK) {
        return search(request, queryVector, topK, null).results();
    }

    /**
     * The results, and whether the vector store's answer was part of their ranking (false
     * without a query vector, or when the store failed or did not answer in time).
     *
     * @param termWeights the query's index terms with their IDF over the project's
     * memories, taken when it was ranked (what {@code AnswerLines} weighs words by)
     */
    public record Answer(List<QueryResult> results, boolean vectors, Map<String, Double> termWeights) {
    }

    /**
     * Answers one query, waiting at most {@code vectorWait} for the vector store (null:
     * as long as it takes): a store that is down or slow (a Milvus server being
     * restarted) leaves the answer ranked on the other signals instead of holding up a
     * hook. The search abandoned at the limit finishes, or fails, on a daemon thread.
     */
    public Answer search(QueryRequest request, float[] queryVector, int topK, Duration vectorWait) {
        return corpora.read(request.project(), corpus -> search(corpus, request, queryVector, topK, vectorWait));
    }

    private Answer search(Corpus corpus, QueryRequest request, float[] queryVector, int topK, Duration vectorWait) {
        if (corpus.memories().isEmpty()) {
            return new Answer(List.of(), false, Map.of());
        }
        Future<Map<String, Double>> teamCosines = queryVector == null ? null
                : team.nearest(request.project(), queryVector, settings.candidates());
        Map<String, Double> cosines = queryVector == null ? null : cosines(request, queryVector, vectorWait);
        if (teamCosines != null) {
            Map<String, Double> nearest = team.await(teamCosines, vectorWait);
            if (nearest != null && cosines != null) {
                nearest.forEach(cosines::putIfAbsent);
            }
        }
        List<RankedMemory> ranked = corpus.ranker().rank(request.text(), cosines, request.at(), topK);
        List<String> terms = QueryTokenizer.tokenize(request.text());
        Map<String, HitSources> sources = sourceRanking.sources(corpus, ranked, terms);
        List<QueryResult> results = new ArrayList<>(ranked.size());
        for (RankedMemory r : ranked) {
            Held m = corpus.memories().get(r.memoryId());
            HitSources hs = sources.getOrDefault(m.memoryId(), HitSources.NONE);
            results.add(new QueryResult(m.memoryId(), citation(m), r.score(), m.kind(), m.summary(), hs.sources(),
                    UtcMicros.toDateTime(m.createdMicros()), m.sessionId(), hs.snippet(), m.author()));
        }
        return new Answer(results, cosines != null, corpus.ranker().termWeights(terms));
    }

    /**
     * The vector store's nearest memories and their cosines, or null when the store fails
     * or does not answer within {@code wait} (null: no limit).
     */
    private Map<String, Double> cosines(QueryRequest request, float[] queryVector, Duration wait) {
        VectorFilter filter = new VectorFilter(request.project(), Set.of(), Set.of("active"), null, null);
        Supplier<Map<String, Double>> search = () -> {
            Map<String, Double> found = new HashMap<>();
            for (VectorHit hit : vectorStore().search(queryVector, settings.candidates(), filter)) {
                found.put(hit.memoryId(), hit.score());
            }
            return found;
        };
        try {
            if (wait == null) {
                return search.get();
            }
            Future<Map<String, Double>> answer = VECTOR_SEARCHES.submit(search::get);
            try {
                return answer.get(Math.max(0, wait.toMillis()), TimeUnit.MILLISECONDS);
            }
            catch (TimeoutException e) {
                answer.cancel(true);
                log.warn("vector search gave no answer within {} ms, ranking by text only", wait.toMillis());
                return null;
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
        catch (VectorStoreException e) {
            log.warn("vector search unavailable, ranking by text only: {}", e.getMessage());
            return null;
        }
    }

    /**
     * The stored citations ({@code show} resolves only those). A memory verified before
     * citations existed has none until the next graduate or reindex; it shows its round-0
     * code, which is right unless that collided.
     */
    private static String citation(Held memory) {
        return memory.citation() != null ? memory.citation() : Citation.of(memory.memoryId());
    }

    private float[][] embed(List<String> texts) {
        if (settings.semantic() == 0 || texts.isEmpty()) {
            return null;
        }
        return embedder().embed(texts);
    }

    /** The embedder, loaded on first use. */
    public Embedder embedder() {
        if (embedder == null) {
            synchronized (this) {
                if (embedder == null) {
                    embedder = embedderFactory.get();
                }
            }
        }
        return embedder;
    }

    private VectorStore vectorStore() {
        if (vectors == null) {
            synchronized (this) {
                if (vectors == null) {
                    vectors = vectorStores.get();
                }
            }
        }
        return vectors;
    }

    @Override
    public void close() {
        team.close();
        if (vectors != null) {
            try {
                vectors.close();
            }
            catch (RuntimeException e) {
                log.debug("closing the vector store failed: {}", e.getMessage());
            }
        }
        if (embedder != null) {
            try {
                embedder.close();
            }
            catch (Exception e) {
                log.debug("closing the embedder failed: {}", e.getMessage());
            }
        }
    }

}
