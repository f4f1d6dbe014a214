package dev.codememory.bench;

import dev.codememory.bench.QueryBench.Fixture;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.processors.canonical.CanonicalKeys;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.embed.EmbeddingTexts;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import dev.codememory.writers.citation.DuckDbCitationWriter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The homes the query benches measure ({@link QueryBench}, {@link TeamBench}): n
 * generated, verified, active memories in one project ({@link GeneratedMemories}), each
 * with its session, turn, prompt and reply events and evidence spans, appended in bulk
 * through DuckDB's Appender into five tables; then their citations and vectors. The
 * memories the queries ask about get the model's vectors of their text, the others
 * vectors shaped like real ones ({@link SubjectVectors}). Prints how long each part took.
 */
final class BenchHomes {

    /** Memories per generated session. */
    static final int SESSION_MEMORIES = 20;

    /** How far back the memories' creation times reach. */
    static final long HISTORY_SECONDS = 365L * 86_400;

    private static final int VECTOR_BATCH = 10_000;

    private final PrintStream out;

    BenchHomes(PrintStream out) {
        this.out = out;
    }

    /**
     * A home built by an earlier run with {@code keep}: its memories are the generated
     * ones, so are its questions.
     */
    Fixture reuse(Path root, String project, int n, int queries) {
        int[] targets = targets(n, queries);
        List<String> questions = new ArrayList<>(queries);
        for (int target : targets) {
            questions.add(GeneratedMemories.of(target).question());
        }
        out.printf("%n%,d memories in one project: reusing %s%n", n, root);
        return new Fixture(root, project, n, questions, targets);
    }

    Fixture build(Path root, String project, int n, int queries, LocalDateTime now, Embedder embedder) {
        int[] targets = targets(n, queries);
        List<String> questions = new ArrayList<>(queries);
        List<String> targetTexts = new ArrayList<>(queries);
        for (int target : targets) {
            GeneratedMemories.Memory m = GeneratedMemories.of(target);
            questions.add(m.question());
            targetTexts.add(EmbeddingTexts.whole(m.title(), m.body()));
        }
        CodeMemoryHome home = new CodeMemoryHome(root).ensureCreated();
        long start = System.nanoTime();
        try (DuckDb.Session session = DuckDb.forHome(home).open()) {
            writeMemories(session, project, n, now);
            long rowsDone = System.nanoTime();
            int cited = new DuckDbCitationWriter(session::connection).assignMissing();
            long citationsDone = System.nanoTime();
            float[][] modelVectors = embedder.embed(targetTexts);
            int subjectCount = SubjectVectors.subjectsFor(n);
            List<String> subjectTexts = new ArrayList<>(subjectCount);
            for (int t = 0; t < subjectCount; t++) {
                GeneratedMemories.Memory m = GeneratedMemories.of(n + t); // not a memory
                                                                          // of this home
                subjectTexts.add(EmbeddingTexts.whole(m.title(), m.body()));
            }
            SubjectVectors subjects = new SubjectVectors(embedder.embed(subjectTexts));
            long embedded = System.nanoTime();
            writeVectors(session, project, n, now, targets, modelVectors, subjects);
            long vectorsDone = System.nanoTime();
            out.printf("%n%,d memories in one project: built in %.1f s (memories, sessions, turns, events and"
                    + " evidence %.1f s; %,d citations %.1f s; %d + %,d model vectors %.1f s; %,d vectors written %.1f s)%n",
                    n, (vectorsDone - start) / 1e9, (rowsDone - start) / 1e9, cited, (citationsDone - rowsDone) / 1e9,
                    targets.length, subjectCount, (embedded - citationsDone) / 1e9, n, (vectorsDone - embedded) / 1e9);
        }
        return new Fixture(root, project, n, questions, targets);
    }

    /**
     * Which memories the queries ask about: one from each of {@code queries} equal slices
     * of the corpus.
     */
    static int[] targets(int memories, int queries) {
        int[] targets = new int[queries];
        long slice = memories / queries;
        for (int q = 0; q < queries; q++) {
            targets[q] = (int) (q * slice + (q * 7919L) % slice);
        }
        return targets;
    }

    /**
     * When memory i of n was created: spread evenly over the last year, the newest at
     * {@code now}.
     */
    static LocalDateTime createdAt(int i, int n, LocalDateTime now) {
        return now.minusSeconds((n - 1L - i) * HISTORY_SECONDS / n);
    }

    /**
     * Memory i with everything the query path and the hook's context read about it: a
     * session per {@value #SESSION_MEMORIES} memories, a turn with its prompt and reply
     * events, two evidence spans (the whole prompt, the body at the head of the reply),
     * in one transaction through the Appender.
     */
    private static void writeMemories(DuckDb.Session session, String project, int n, LocalDateTime now) {
        try (DuckDBConnection c = session.connection()) {
            c.setAutoCommit(false);
            try (DuckDBAppender entries = c.createAppender("main", "entries");
                    DuckDBAppender turns = c.createAppender("main", "turns");
                    DuckDBAppender events = c.createAppender("main", "events");
                    DuckDBAppender spans = c.createAppender("main", "evidence_spans");
                    DuckDBAppender sessions = c.createAppender("main", "sessions")) {
                for (int i = 0; i < n; i++) {
                    GeneratedMemories.Memory m = GeneratedMemories.of(i);
                    String id = memoryId(i);
                    String sessionId = "bench-session-" + (i / SESSION_MEMORIES);
                    LocalDateTime created = createdAt(i, n, now);
                    LocalDateTime promptTs = created.minusSeconds(40);
                    LocalDateTime replyTs = created.minusSeconds(10);
                    String promptEvent = "ev_" + i + "_prompt";
                    String replyEvent = "ev_" + i + "_reply";
                    Map<String, Object> promptPayload = hookObject(sessionId, project, "UserPromptSubmit");
                    promptPayload.put("prompt", m.prompt());
                    Map<String, Object> replyPayload = hookObject(sessionId, project, "Stop");
                    replyPayload.put("stop_hook_active", false);
                    replyPayload.put("last_assistant_message", m.reply());
                    appendEvent(events, promptEvent, 2L * i + 1, promptTs, "UserPromptSubmit", sessionId, project,
                            Json.write(promptPayload), now);
                    appendEvent(events, replyEvent, 2L * i + 2, replyTs, "Stop", sessionId, project,
                            Json.write(replyPayload), now);
                    turns.beginRow()
                        .append("turn_" + i)
                        .append(sessionId)
                        .append(project)
                        .append(promptEvent)
                        .append(m.prompt())
                        .append(replyEvent)
                        .append(m.reply())
                        .append("stop")
                        .append(promptTs)
                        .append(replyTs)
                        .endRow();
                    String quotes = Json
                        .write(List.of(quote(promptEvent, "prompt", m.prompt()), quote(replyEvent, "reply", m.body())));
                    entries.beginRow()
                        .append(id)
                        .append("cand_" + i)
                        .append(m.kind())
                        .append(project)
                        .append(sessionId)
                        .append(created)
                        .append(m.title())
                        .append(m.body())
                        .append((String) null)
                        .append(quotes)
                        .append(m.kind() + ":bench:" + i)
                        .append("verified")
                        .append("active")
                        .append((String) null)
                        .append(now)
                        .endRow();
                    appendSpan(spans, id, 0, promptEvent, "prompt", m.prompt().length(), m.prompt());
                    appendSpan(spans, id, 1, replyEvent, "reply", m.body().length(), m.body());
                    boolean lastOfSession = i % SESSION_MEMORIES == SESSION_MEMORIES - 1 || i == n - 1;
                    if (lastOfSession) {
                        int first = i - i % SESSION_MEMORIES;
                        sessions.beginRow()
                            .append(sessionId)
                            .append(project)
                            .append(createdAt(first, n, now).minusSeconds(60))
                            .append(replyTs.plusSeconds(60))
                            .append("other")
                            .append("main")
                            .append(2L * first + 1)
                            .append(2L * i + 2)
                            .append(i - first + 1)
                            .append(0)
                            .append(2L * i + 2)
                            .endRow();
                    }
                }
            }
            c.commit();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot write the bench memories: " + e.getMessage(), e);
        }
    }

    static String memoryId(int i) {
        return String.format("ent_bench_%07d", i);
    }

    private static Map<String, Object> hookObject(String sessionId, String project, String event) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("session_id", sessionId);
        payload.put("cwd", project);
        payload.put("hook_event_name", event);
        return payload;
    }

    private static Map<String, Object> quote(String eventId, String field, String text) {
        Map<String, Object> quote = new LinkedHashMap<>();
        quote.put("eventId", eventId);
        quote.put("field", field);
        quote.put("text", text);
        return quote;
    }

    private static void appendEvent(DuckDBAppender events, String id, long seq, LocalDateTime ts, String type,
            String sessionId, String project, String payload, LocalDateTime now) throws SQLException {
        events.beginRow()
            .append(id)
            .append("bench:" + id)
            .append(seq)
            .append(ts)
            .append(ts)
            .append(type)
            .append(sessionId)
            .append(project)
            .append(project)
            .append("import")
            .append(payload)
            .append(CanonicalKeys.sha256(payload))
            .append("bench.jsonl")
            .append(seq)
            .append(now)
            .endRow();
    }

    private static void appendSpan(DuckDBAppender spans, String entryId, int quoteIndex, String eventId, String field,
            int end, String quote) throws SQLException {
        spans.beginRow()
            .append(entryId)
            .append(quoteIndex)
            .append(eventId)
            .append(field)
            .append(0)
            .append(end)
            .append(1.0)
            .append("exact")
            .append(CanonicalKeys.sha256(quote).substring(0, 16))
            .endRow();
    }

    /**
     * Every memory's vector through the project's store: the model's for the asked-about
     * ones; the others drawn by {@link SubjectVectors}, memory i about subject i modulo
     * their number.
     */
    private static void writeVectors(DuckDb.Session session, String project, int n, LocalDateTime now, int[] targets,
            float[][] modelVectors, SubjectVectors subjects) {
        DuckDbVectorStore store = new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION);
        store.ensureReady();
        Map<Integer, float[]> known = new LinkedHashMap<>();
        for (int q = 0; q < targets.length; q++) {
            known.put(targets[q], modelVectors[q]);
        }
        Random random = new Random(n);
        List<VectorRecord> batch = new ArrayList<>(VECTOR_BATCH);
        for (int i = 0; i < n; i++) {
            float[] drawn = subjects.draw(i % subjects.size(), random); // drawn for every
                                                                        // i: the same for
                                                                        // any targets
            batch.add(new VectorRecord(memoryId(i), known.getOrDefault(i, drawn), project,
                    GeneratedMemories.of(i).kind(), "active", createdAt(i, n, now)));
            if (batch.size() == VECTOR_BATCH) {
                store.upsert(batch);
                batch.clear();
            }
        }
        store.upsert(batch);
    }

}
