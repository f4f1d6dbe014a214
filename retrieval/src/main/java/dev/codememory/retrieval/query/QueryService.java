package dev.codememory.retrieval.query;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.time.UtcMicros;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.query.SourceRanking.HitSources;
import dev.codememory.retrieval.ranking.HybridRanker;
import dev.codememory.retrieval.ranking.MemoryDoc;
import dev.codememory.retrieval.ranking.QueryTokenizer;
import dev.codememory.retrieval.ranking.Questions;
import dev.codememory.retrieval.ranking.RankedMemory;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.team.TeamSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * {@link SourceRanking} ranks each result's source events; {@link TeamReads} reads the
 * team store.
 */
public final class QueryService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(QueryService.class);

    private static final String ALL = "\u0000all";

    /** Where searches limited in time wait for the vector store; daemon threads. */
    static final ExecutorService VECTOR_SEARCHES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "code-memory-vector-search");
        t.setDaemon(true);
        return t;
    });

    private final DuckDb.Session session;

    private final Supplier<Embedder> embedderFactory;

    private final Supplier<VectorStore> vectorStores;

    private final RankingSettings settings;

    private final Map<String, Corpus> corpora = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Searches read the indexes under the read lock; {@link #refresh} changes them under
     * the write lock.
     */
    private final java.util.concurrent.locks.ReadWriteLock lock = new java.util.concurrent.locks.ReentrantReadWriteLock();

    private volatile Embedder embedder;

    private volatile VectorStore vectors;

    private final TeamReads team = new TeamReads();

    private final SourceRanking sourceRanking;

    /**
     * A project's memories as the query path reads them, in memory: the ranker's indexes,
     * each memory as a result shows it, and the texts of their source events. Sources,
     * texts and citations never change once a memory is verified, so {@link #refresh}
     * only adds and removes.
     */
    record Corpus(HybridRanker ranker, Map<String, Held> memories, Map<String, String> texts,
            Map<String, SpokenTurn> answeredTurns) {
    }

    /**
     * What a result shows of a memory, held for every memory of the project: its summary
     * instead of its title and body (those are indexed, then not needed again), its
     * stored citation (null: none yet) and its source events.
     */
    record Held(String memoryId, String kind, String summary, long createdMicros, String sessionId, String citation,
            List<MemorySource> sources, String author) {

        static Held of(StoredMemory m, Loaded loaded) {
            return new Held(m.memoryId(), m.kind(), QueryService.summary(m), UtcMicros.of(m.createdTs()), m.sessionId(),
                    loaded.citations().get(m.memoryId()),
                    List.copyOf(loaded.sources().sources().getOrDefault(m.memoryId(), List.of())), null);
        }

        /**
         * A team memory: no local sources or session; its citation is its publisher's.
         */
        static Held of(TeamMemory m) {
            return new Held(m.memoryId(), m.kind(), QueryService.summary(m.title(), m.body()),
                    UtcMicros.of(m.createdTs()), "", Citation.PREFIX + m.citation(), List.of(), m.author());
        }
    }

    /** What {@link #load} reads for a project. */
    private record Loaded(List<StoredMemory> stored, MemoryQueries.ProjectSources sources,
            Map<String, String> citations, Map<String, String> previousSaid) {

        /**
         * By prompt or reply: the prompt or reply before it in its session; read only
         * with {@link RankingSettings#turnContext} on.
         */
        private static Map<String, String> previousSaid(Map<String, MemorySource> nextSaid) {
            Map<String, String> previous = new HashMap<>();
            nextSaid.forEach((event, next) -> previous.put(next.eventId(), event));
            return previous;
        }
    }

    /**
     * @param vectorStores the vector store to search, created on the first query with a
     * vector (see {@code VectorComponents}); closed with this service
     */
    public QueryService(DuckDb.Session session, Supplier<Embedder> embedderFactory, Supplier<VectorStore> vectorStores,
            RankingSettings settings) {
        this.session = session;
        this.embedderFactory = embedderFactory;
        this.vectorStores = vectorStores;
        this.settings = settings;
        this.sourceRanking = new SourceRanking(session, settings);
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
        Corpus corpus = corpus(request.project());
        lock.readLock().lock();
        try {
            return QueryAnswer.of(hits, corpus.ranker().holdsAnyOf(QueryTokenizer.tokenize(request.text())));
        }
        finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Loads and indexes the project's memories now (they are otherwise loaded by the
     * first query).
     */
    public int prepare(String project) {
        return corpus(project).memories().size();
    }

    /** The projects whose memories are indexed (null: the all-projects index). */
    public java.util.Set<String> preparedProjects() {
        java.util.Set<String> out = new java.util.HashSet<>();
        corpora.keySet().forEach(k -> out.add(ALL.equals(k) ? null : k));
        return out;
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
        String key = project == null ? ALL : project;
        Corpus corpus = corpora.get(key);
        if (corpus == null) {
            return new Refresh(project, 0, 0, 0);
        }
        Future<List<TeamMemory>> teamLoad = team.memories(project);
        Loaded loaded = load(project);
        List<TeamMemory> teamNow = team.await(teamLoad);
        Map<String, StoredMemory> now = new LinkedHashMap<>();
        loaded.stored().forEach(m -> now.put(m.memoryId(), m));
        Map<String, TeamMemory> teamById = new LinkedHashMap<>();
        if (teamNow != null) {
            teamNow.stream().filter(m -> !now.containsKey(m.memoryId())).forEach(m -> teamById.put(m.memoryId(), m));
        }
        List<MemoryDoc> added = new ArrayList<>();
        for (StoredMemory m : loaded.stored()) {
            if (!corpus.memories().containsKey(m.memoryId())) {
                added.add(doc(m, loaded, loaded.sources().turnTexts()));
            }
        }
        List<TeamMemory> teamAdded = teamById.values()
            .stream()
            .filter(m -> !corpus.memories().containsKey(m.memoryId()))
            .toList();
        // a team store that did not answer leaves the team memories as they were
        List<String> removed = corpus.memories()
            .entrySet()
            .stream()
            .filter(e -> e.getValue().author() == null ? !now.containsKey(e.getKey())
                    : teamNow != null && !teamById.containsKey(e.getKey()))
            .map(Map.Entry::getKey)
            .toList();
        lock.writeLock().lock();
        try {
            corpus.ranker().remove(removed);
            corpus.ranker().add(added);
            corpus.ranker().add(teamAdded.stream().map(QueryService::doc).toList());
            for (String id : removed) {
                corpus.memories().remove(id);
            }
            teamAdded.forEach(m -> corpus.memories().put(m.memoryId(), Held.of(m)));
            for (MemoryDoc d : added) {
                Held held = Held.of(now.get(d.memoryId()), loaded);
                corpus.memories().put(held.memoryId(), held);
                held.sources().forEach(src -> {
                    String text = loaded.sources().eventTexts().get(src.eventId());
                    if (text != null) {
                        corpus.texts().put(src.eventId(), text);
                    }
                });
                answers(corpus, loaded, held.sources().stream().map(MemorySource::eventId).toList());
            }
        }
        finally {
            lock.writeLock().unlock();
        }
        return new Refresh(project, added.size() + teamAdded.size(), removed.size(), corpus.memories().size());
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
        Corpus corpus = project == null ? null : corpora.get(project);
        List<TeamMemory> now = corpus == null ? null : team.await(team.memories(project));
        if (now == null) {
            return new Refresh(project, 0, 0, corpus == null ? 0 : corpus.memories().size());
        }
        Map<String, TeamMemory> byId = new LinkedHashMap<>();
        now.forEach(m -> byId.put(m.memoryId(), m));
        List<TeamMemory> added = now.stream().filter(m -> !corpus.memories().containsKey(m.memoryId())).toList();
        List<String> removed = corpus.memories()
            .entrySet()
            .stream()
            .filter(e -> e.getValue().author() != null && !byId.containsKey(e.getKey()))
            .map(Map.Entry::getKey)
            .toList();
        lock.writeLock().lock();
        try {
            corpus.ranker().remove(removed);
            corpus.ranker().add(added.stream().map(QueryService::doc).toList());
            removed.forEach(corpus.memories()::remove);
            added.forEach(m -> corpus.memories().put(m.memoryId(), Held.of(m)));
        }
        finally {
            lock.writeLock().unlock();
        }
        return new Refresh(project, added.size(), removed.size(), corpus.memories().size());
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
        Corpus corpus = corpus(request.project());
        lock.readLock().lock();
        try {
            return search(corpus, request, queryVector, topK, vectorWait);
        }
        finally {
            lock.readLock().unlock();
        }
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

    private Corpus corpus(String project) {
        return corpora.computeIfAbsent(project == null ? ALL : project, key -> {
            long start = System.nanoTime();
            Future<List<TeamMemory>> teamLoad = team.memories(project);
            Loaded loaded = load(project);
            Map<String, Held> byId = new java.util.concurrent.ConcurrentHashMap<>();
            List<MemoryDoc> docs = new ArrayList<>(loaded.stored().size());
            for (StoredMemory m : loaded.stored()) {
                byId.put(m.memoryId(), Held.of(m, loaded));
                docs.add(doc(m, loaded, settings.turnLexical() > 0 ? loaded.sources().turnTexts() : Map.of()));
            }
            List<TeamMemory> teamMemories = team.await(teamLoad);
            if (teamMemories != null) {
                for (TeamMemory m : teamMemories) {
                    if (byId.putIfAbsent(m.memoryId(), Held.of(m)) == null) {
                        docs.add(doc(m));
                    }
                }
            }
            HybridRanker ranker = new HybridRanker(docs, settings);
            log.debug("indexed {} memories in {} ms", docs.size(), (System.nanoTime() - start) / 1_000_000);
            Corpus corpus = new Corpus(ranker, byId,
                    new java.util.concurrent.ConcurrentHashMap<>(loaded.sources().eventTexts()),
                    new java.util.concurrent.ConcurrentHashMap<>());
            answers(corpus, loaded, loaded.sources().nextSaid().keySet());
            return corpus;
        });
    }

    /**
     * Keeps, for each of these source events that asks, the prompt or reply that answers
     * it (read with the corpus, so a search needs no read of its sessions; one that has
     * no answer yet is read when a search needs it).
     */
    private void answers(Corpus corpus, Loaded loaded, java.util.Collection<String> events) {
        if (settings.questionPenalty() <= 0 && settings.answerCarry() <= 0) {
            return;
        }
        for (String event : events) {
            MemorySource next = loaded.sources().nextSaid().get(event);
            if (next != null && Questions.asks(corpus.texts().get(event))) {
                corpus.answeredTurns().putIfAbsent(event, new SpokenTurn(event, next));
            }
        }
    }

    private Loaded load(String project) {
        try (Connection c = session.connection()) {
            MemoryQueries.ProjectSources sources = MemoryQueries.projectSources(c, project);
            return new Loaded(MemoryQueries.memories(c, project), sources,
                    CitationQueries.citationsOfProject(c, project),
                    settings.turnContext() > 0 ? Loaded.previousSaid(sources.nextSaid()) : Map.of());
        }
        catch (SQLException e) {
            throw new QueryException("cannot read memories: " + e.getMessage(), e);
        }
    }

    private static MemoryDoc doc(TeamMemory m) {
        return new MemoryDoc(m.memoryId(), m.kind(), "active", m.createdTs(), m.text());
    }

    private MemoryDoc doc(StoredMemory m, Loaded loaded, Map<String, List<String>> turns) {
        return new MemoryDoc(m.memoryId(), m.kind(), m.status(), m.createdTs(), m.text() + context(m, loaded),
                turns.getOrDefault(m.memoryId(), List.of()));
    }

    /**
     * What was said just before an exchange in its session, indexed with it (never
     * shown): the {@link RankingSettings#turnContext} prompts or replies before its first
     * source event. A reply such as "Maybe look into physical therapy for that?" holds
     * none of the words of "what did Sam suggest for Evan's knee?"; the turn before it
     * does. Only the lexical index reads it; the memory's vector, sources and snippet
     * stay its own.
     */
    private String context(StoredMemory m, Loaded loaded) {
        List<MemorySource> sources = loaded.sources().sources().getOrDefault(m.memoryId(), List.of());
        if (settings.turnContext() <= 0 || !"exchange".equals(m.kind()) || sources.isEmpty()) {
            return "";
        }
        StringBuilder context = new StringBuilder();
        String event = loaded.previousSaid().get(sources.get(0).eventId());
        for (int i = 0; i < settings.turnContext() && event != null; i++) {
            String text = loaded.sources().eventTexts().get(event);
            if (text != null) {
                context.append("\n\n").append(text);
            }
            event = loaded.previousSaid().get(event);
        }
        return context.toString();
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

    static String summary(StoredMemory m) {
        return summary(m.title(), m.body());
    }

    static String summary(String title, String body) {
        String s = title.isBlank() ? body : title;
        s = s.replaceAll("\\s+", " ").strip();
        return s.length() > 200 ? s.substring(0, 199) + "…" : s;
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
