package dev.codememory.retrieval.context;

import dev.codememory.config.db.DuckDb;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.query.RankedSource;
import dev.codememory.retrieval.ranking.MatchBand;
import dev.codememory.retrieval.ranking.PastQuestion;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * UserPromptSubmit's context: the prompt is answered by the one query path
 * ({@link QueryService}) on a read-only database and turned into cited text by
 * {@link PromptContextBuilder}, all within the hook's time budget.
 *
 * <p>
 * Cold, the embedding model alone takes 2–5 s to load on two cores
 * ({@link #COLD_MODEL_LOAD}). When the budget leaves that much time, the model loads on
 * its own thread while the database opens and the project's memories are indexed on
 * another, and the query waits for the prompt's vector until {@link #RESERVE} before the
 * deadline. When it does not (the default 2.5 s budget), the model is not loaded at all:
 * loading it would only take CPU from the text ranking (measured with
 * {@code bench --query}: with the model loading beside it, 0 of 20 cold hooks got a
 * vector in time and 5 to 16 of 20 missed even the text answer). Without a vector the
 * memories are ranked without the semantic signal (weights renormalised and discounted,
 * see {@code HybridRanker#rank}), and the outcome says so.
 */
public final class PromptContextService {

    /**
     * Time kept for ranking, reading layers 2–3 and writing the answer once the vector is
     * waited for.
     */
    static final Duration RESERVE = Duration.ofMillis(400);

    /**
     * What the vector search may take of the reserve when the query vector came late: an
     * in-process search of the DuckDB table takes tens of milliseconds, so a vector made
     * just in time is still used; a Milvus server that does not answer is given up on.
     */
    static final Duration VECTOR_SEARCH_FLOOR = Duration.ofMillis(200);

    /**
     * What a cold model load may take here (measured 2.1–4.9 s); less budget than this,
     * and no model is loaded.
     */
    static final Duration COLD_MODEL_LOAD = Duration.ofSeconds(5);
    static final int TOP_K = 10;

    /** How many of a hit's source events (best first) an answer is looked for in. */
    static final int ANSWER_SOURCES = 6;

    /**
     * Longer prompts (pasted logs) are cut for the query: BM25 and the model see at most
     * this much.
     */
    static final int MAX_QUERY_CHARS = 4_000;

    /**
     * What was injected (possibly nothing), from which hits, whether the vector made it
     * in time, and where the time went ({@link #split}).
     *
     * @param split milliseconds: index the project, wait for the prompt's vector, rank,
     * disclose (read what the context shows of its hits)
     */
    public record Outcome(InjectedContext context, List<QueryResult> hits, boolean semantic, long[] split,
            String team) {

        public Outcome(InjectedContext context, List<QueryResult> hits, boolean semantic) {
            this(context, hits, semantic, new long[4], "off");
        }

        /**
         * For hook.log: {@code index=… vector=… rank=… disclose=…} in ms, then
         * {@code team=off|ok|down} (down: the team store did not answer in time, the
         * answer is the local store's alone).
         */
        public String splitText() {
            return "index=" + split[0] + " vector=" + split[1] + " rank=" + split[2] + " disclose=" + split[3]
                    + " team=" + team;
        }
    }

    /**
     * The query service and the session it reads, held for one answer (see
     * {@link SessionLease}).
     */
    public record QueryLease(SessionLease session, QueryService service) implements AutoCloseable {

        @Override
        public void close() {
            if (session.owned()) {
                service.close();
            }
            session.close();
        }
    }

    private final Supplier<QueryLease> queries;

    private final Supplier<Embedder> embedderFactory;

    private final boolean modelLoaded;

    /**
     * The cold path: each answer opens the database read-only and indexes the project,
     * and the model is loaded only when the budget leaves time for it.
     */
    public PromptContextService(DuckDb duckDb, VectorComponents components, RankingSettings settings) {
        this(() -> {
            SessionLease lease = SessionLease.openReadOnly(duckDb);
            return new QueryLease(lease,
                    new QueryService(lease.session(), components.embedder(),
                            () -> components.vectorStore(lease.session()::connection), settings)
                        .withTeam(components.teamSource()));
        }, components.embedder(), false);
    }

    /**
     * @param queries the query service to answer with, per answer
     * @param embedderFactory the model for the prompt's vector
     * @param modelLoaded true when the model is already in memory (the resident process):
     * every prompt is then embedded, whatever the budget
     */
    public PromptContextService(Supplier<QueryLease> queries, Supplier<Embedder> embedderFactory, boolean modelLoaded) {
        this.queries = queries;
        this.embedderFactory = embedderFactory;
        this.modelLoaded = modelLoaded;
    }

    /**
     * The context for a prompt in a project, or a {@link TimeoutException} when even the
     * lexical answer cannot be ready by the deadline.
     */
    Outcome contextFor(String project, String prompt, ContextBudgetClock clock)
            throws TimeoutException, ExecutionException, InterruptedException {
        String text = prompt.length() > MAX_QUERY_CHARS ? prompt.substring(0, MAX_QUERY_CHARS) : prompt;
        boolean loadable = modelLoaded || clock.millisLeft(RESERVE) >= COLD_MODEL_LOAD.toMillis();
        Future<float[]> vector = !loadable ? null : clock.start(() -> {
            Embedder embedder = embedderFactory.get();
            return embedder.embed(List.of(text))[0];
        });
        Future<Outcome> answer = clock.start(() -> answer(project, text, vector, clock));
        return clock.await(answer);
    }

    /**
     * What the prompt hook would inject for {@code prompt} in {@code project} right now,
     * within the hook's own budget: the viewer's context preview. Nothing is recorded.
     */
    public Outcome preview(String project, String prompt)
            throws TimeoutException, ExecutionException, InterruptedException {
        return contextFor(project, prompt,
                new ContextBudgetClock(java.time.Instant.now(), ContextBudgetClock.budgetFromEnvironment()));
    }

    private Outcome answer(String project, String text, Future<float[]> vector, ContextBudgetClock clock)
            throws InterruptedException {
        try (QueryLease lease = queries.get()) {
            DuckDb.Session session = lease.session().session();
            QueryService service = lease.service();
            long[] split = new long[4];
            long t0 = System.nanoTime();
            if (service.prepare(project) == 0) {
                if (vector != null) {
                    vector.cancel(true);
                }
                return new Outcome(InjectedContext.empty(MatchBand.NONE), List.of(), false, new long[4],
                        service.teamState());
            }
            long t1 = System.nanoTime();
            float[] queryVector = null;
            try {
                queryVector = vector == null ? null : vector.get(clock.millisLeft(RESERVE), TimeUnit.MILLISECONDS);
            }
            catch (TimeoutException | ExecutionException e) {
                // ranked without the semantic signal; the outcome says so
            }
            long t2 = System.nanoTime();
            QueryService.Answer answer = service.search(
                    new QueryRequest(null, text, project, LocalDateTime.now(ZoneOffset.UTC)), queryVector, TOP_K,
                    Duration.ofMillis(Math.max(clock.millisLeft(RESERVE), VECTOR_SEARCH_FLOOR.toMillis())));
            List<QueryResult> hits = answer.results();
            long t3 = System.nanoTime();
            Map<String, String> citations = new LinkedHashMap<>();
            hits.forEach(h -> citations.put(h.memoryId(), h.citation()));
            DuckDbDisclosure disclosure = new DuckDbDisclosure(session, citations);
            PromptContextBuilder builder = new PromptContextBuilder(disclosure);
            List<ContextHit> ranked = hits.stream().map(PromptContextService::hit).toList();
            Optional<PastQuestion> question = PastQuestion.of(text);
            InjectedContext context = question.isEmpty() ? builder.build(ranked)
                    : builder.answer(
                            AnswerLines.of(question.get(), answer.termWeights(), ranked,
                                    answerSources(hits, disclosure)),
                            MatchBand.of(ranked.stream().map(ContextHit::score).toList()));
            long t4 = System.nanoTime();
            split[0] = (t1 - t0) / 1_000_000;
            split[1] = (t2 - t1) / 1_000_000;
            split[2] = (t3 - t2) / 1_000_000;
            split[3] = (t4 - t3) / 1_000_000;
            return new Outcome(context, hits, answer.vectors(), split, service.teamState());
        }
    }

    /**
     * The texts the answer is looked for in: a local hit's own text and source events, a
     * teammate's memory's line (its sources are on another machine).
     */
    private static List<AnswerLines.Source> answerSources(List<QueryResult> hits, DuckDbDisclosure disclosure) {
        List<AnswerLines.Source> sources = new java.util.ArrayList<>(disclosure.answerSources(answerEvents(hits)));
        hits.stream()
            .filter(QueryResult::team)
            .forEach(h -> sources.add(new AnswerLines.Source(h.memoryId(), null, h.summary(), false)));
        return sources;
    }

    /**
     * For each local hit, the source events its answer is looked for in: its best
     * {@value #ANSWER_SOURCES}, a reply that answers a source question among them.
     */
    private static Map<String, List<String>> answerEvents(List<QueryResult> hits) {
        Map<String, List<String>> events = new LinkedHashMap<>();
        for (QueryResult hit : hits) {
            if (!hit.team()) {
                events.put(hit.memoryId(),
                        hit.sources().stream().limit(ANSWER_SOURCES).map(RankedSource::eventId).toList());
            }
        }
        return events;
    }

    /**
     * An exchange is indexed by the sentence of its prompt and reply that says most about
     * the prompt being answered (its title is only the prompt it began with, often a
     * question); other kinds by their recorded title.
     */
    static ContextHit hit(QueryResult r) {
        String snippet = "exchange".equals(r.kind()) ? r.snippet().get() : "";
        String line = snippet.isBlank() ? r.summary() : snippet;
        return new ContextHit(r.citation(), r.memoryId(), r.kind(), line, Math.min(1, Math.max(0, r.score())),
                r.createdTs(), r.sessionId(), r.author());
    }

}
