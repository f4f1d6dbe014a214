package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.fixtures.GeneratedSessions;
import dev.codememory.jobs.servers.MilvusDatabase;
import dev.codememory.jobs.servers.TcpProxy;
import dev.codememory.jobs.servers.TestServers;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product against a real Milvus server ({@code MILVUS_URI}; Milvus Lite in CI): one
 * home graduated with the embedded DuckDB store is the reference; the same home on Milvus
 * must hold the same vectors and rank the same, and Milvus failing must neither lose
 * vectors nor hold a hook up. Each test has a Milvus database of its own.
 */
class MilvusEndToEndIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    private static final String VERSION = MiniLmOnnxEmbedder.VERSION.id();

    private static final String COLLECTION = "code_memory_" + VERSION;

    /**
     * Every home here embeds one memory per model call: the int8 model quantizes each
     * batch's activations with one scale, so a vector depends (by about 0.01) on the
     * texts embedded beside it, and only homes that batch alike can be compared vector
     * for vector.
     */
    private static final String ONE_AT_A_TIME = "code-memory.embedding.chunk-size: 1\n";

    @TempDir
    static Path shared;

    /** The fixture session and ten generated ones, graduated on DuckDB. */
    private static Path reference;

    private static Path hooks;

    @TempDir
    Path tmp;

    @BeforeAll
    static void graduateTheReferenceHome() throws Exception {
        if (!TestServers.available(TestServers.MILVUS_URI)) {
            return; // each test then says why it is skipped (or fails, on CI)
        }
        Files.createDirectories(shared.resolve("shop-api/.git"));
        hooks = shared.resolve("hooks");
        Files.createDirectories(hooks);
        Files
            .writeString(hooks.resolve("session.jsonl"),
                    new String(MilvusEndToEndIntegrationTests.class
                        .getResourceAsStream("/fixtures/claude-code-session.jsonl")
                        .readAllBytes(), StandardCharsets.UTF_8).replace(FIXTURE_DIR, shared.toString()));
        GeneratedSessions.write(hooks.resolve("generated.jsonl"), 10 * GeneratedSessions.EVENTS_PER_SESSION);
        reference = shared.resolve("reference");
        Files.createDirectories(reference);
        Files.writeString(reference.resolve("application.yml"), ONE_AT_A_TIME);
        importHooks(reference);
        JobsJar.Result graduated = JobsJar.run(reference, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stdout() + graduated.stderr()).isZero();
    }

    @BeforeEach
    void needsMilvus() {
        TestServers.milvusUri();
    }

    @Test
    void milvusHoldsTheSameVectorsAndRanksAsDuckDbDoes() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri())) {
            Path home = copy(reference, tmp.resolve("on-milvus"));
            Files.writeString(home.resolve("application.yml"), milvus.settings() + ONE_AT_A_TIME);

            JobsJar.Result reindexed = JobsJar.run(home, new byte[0], "--job=reindex");

            assertThat(reindexed.exit()).as(reindexed.stdout() + reindexed.stderr()).isZero();
            Map<String, float[]> expected = duckVectors(reference);
            assertThat(expected.size()).isGreaterThan(20);
            assertSameVectors(milvus.vectors(COLLECTION), expected);

            Path queries = tmp.resolve("queries.jsonl");
            Files.write(queries, queries());
            Map<String, List<Hit>> onDuckDb = batchQuery(reference, queries, tmp.resolve("duckdb.jsonl"));
            Map<String, List<Hit>> onMilvus = batchQuery(home, queries, tmp.resolve("milvus.jsonl"));
            assertThat(onMilvus.keySet()).isEqualTo(onDuckDb.keySet());
            for (String qid : onDuckDb.keySet()) {
                assertThat(onDuckDb.get(qid)).as(qid).isNotEmpty();
                assertSameRanking(qid, onMilvus.get(qid), onDuckDb.get(qid));
            }

            String forgotten = onMilvus.get("q0").get(0).citation();
            String forgottenId = onMilvus.get("q0").get(0).memoryId();
            JobsJar.Result forget = JobsJar.run(home, new byte[0], "forget", forgotten);
            assertThat(forget.exit()).as(forget.stdout() + forget.stderr()).isZero();
            // the memory goes, with what it alone backed; every vector left is of a
            // memory still there
            Set<String> left = milvus.vectors(COLLECTION).keySet();
            Set<String> kept = new TreeSet<>(expected.keySet());
            kept.retainAll(strings(JobsJar.duckRows(home, "SELECT entry_id FROM entries")));
            assertThat(left).doesNotContain(forgottenId).isEqualTo(kept);
            assertThat(kept).hasSizeLessThan(expected.size());
        }
    }

    @Test
    void milvusStoppedDuringEmbeddingFailsTheStepAndTheRerunLeavesTheUninterruptedVectors() throws Exception {
        try (MilvusDatabase milvus = new MilvusDatabase(TestServers.milvusUri());
                TcpProxy proxy = new TcpProxy(URI.create(TestServers.milvusUri()))) {
            Path home = tmp.resolve("interrupted");
            importHooks(home);
            Files.writeString(home.resolve("application.yml"), milvus.settings(proxy.uri()) + ONE_AT_A_TIME);
            int expected = duckVectors(reference).size();

            Process job = JobsJar.start(home, tmp.resolve("graduate.log"), "--job=graduate");
            long deadline = System.currentTimeMillis() + 300_000;
            while (milvus.vectors(COLLECTION).size() < 3 && job.isAlive() && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            proxy.stop();
            assertThat(job.waitFor() == 0 ? "completed" : "failed").as("graduation with Milvus gone")
                .isEqualTo("failed");
            String output = Files.readString(tmp.resolve("graduate.log"));
            assertThat(output).contains("embedMemoriesStep")
                .contains("milvus vector store: cannot upsert into " + COLLECTION);
            Map<String, float[]> written = milvus.vectors(COLLECTION);
            List<String> done = strings(JobsJar.duckRows(home,
                    "SELECT memory_id FROM vector_outbox WHERE status = 'done' AND op = 'upsert' ORDER BY 1"));
            assertThat(new TreeSet<>(written.keySet())).containsAll(done);
            assertThat(done).hasSizeGreaterThanOrEqualTo(2).hasSizeLessThan(expected);
            assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM vector_outbox WHERE status <> 'done'"))
                .isEqualTo(expected - done.size());
            assertThat(JobsJar.duckLong(home, "SELECT max(attempts) FROM vector_outbox")).isZero();

            proxy.start();
            JobsJar.Result rerun = JobsJar.run(home, new byte[0], "--job=graduate");

            assertThat(rerun.exit()).as(rerun.stdout() + rerun.stderr()).isZero();
            assertSameVectors(milvus.vectors(COLLECTION), duckVectors(reference));
            assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM vector_outbox WHERE status <> 'done'")).isZero();
            assertThat(JobsJar.sqliteRows(home, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
                .containsExactly(List.of("FAILED"), List.of("COMPLETED"));
        }
    }

    @Test
    void withMilvusDownTheHookStillAnswersFromTextWithinItsBudget() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path home = copy(reference, tmp.resolve("milvus-down"));
        Files.writeString(home.resolve("application.yml"),
                "code-memory.vector-store: milvus\ncode-memory.milvus.uri: http://127.0.0.1:" + closedPort + "\n");
        // budget enough for a cold model load, so the prompt's vector is made and Milvus
        // asked
        long budget = 9_000;
        String prompt = "{\"session_id\":\"milvus-down\",\"cwd\":\"" + shared.resolve("shop-api")
                + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"" + PROMPT + "\"}";

        long started = System.nanoTime();
        JobsJar.Result hook = JobsJar.run(home, Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", Long.toString(budget)),
                utf8(prompt), "hook");
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertThat(hook.exit()).isZero();
        assertThat(hook.stderr()).isEmpty();
        // ranked on text: found, not skipped at the deadline; the band decides whether
        // any
        // of it is injected (without the semantic signal, here it is not)
        List<String> log = Files.readAllLines(home.resolve("logs/hook.log"));
        assertThat(log.get(log.size() - 1)).containsPattern("UserPromptSubmit context: [1-9]\\d* hits")
            .contains("text only (no vectors within the budget)")
            .contains("source=cold vectors=false");
        assertThat(hook.stdout()).isEqualTo(textOnlyAnswer(prompt));
        // the budget runs from the hook's start; the JVM's own start and exit come on top
        assertThat(millis).isLessThan(budget + 3_000);
    }

    /**
     * What the reference home (DuckDB) answers when the budget leaves no time for the
     * model: the text-only answer.
     */
    private String textOnlyAnswer(String prompt) throws Exception {
        Path home = copy(reference, tmp.resolve("text-only"));
        return JobsJar.run(home, Map.of("CODE_MEMORY_CONTEXT_BUDGET_MS", "2500"), utf8(prompt), "hook").stdout();
    }

    private static final String PROMPT = "Should the order history analytics use DuckDB instead of SQLite?";

    private static List<String> queries() throws IOException {
        String shop = shared.resolve("shop-api").toString();
        String[][] texts = { { PROMPT, shop }, { "which embedded analytics store for order history", shop },
                { "why did the checkout tests fail", shop }, { "rate limiter token bucket", generated(0) },
                { "missing index on the billing table made the query slow", generated(1) },
                { "cache never invalidated after writes", generated(2) },
                { "small commits with descriptive messages", generated(3) },
                { "never log request bodies", generated(4) } };
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            Map<String, String> q = new LinkedHashMap<>();
            q.put("qid", "q" + i);
            q.put("text", texts[i][0]);
            if (texts[i][1] != null) {
                q.put("project", texts[i][1]);
            }
            q.put("at", "2026-12-01T00:00:00Z");
            lines.add(Json.write(q));
        }
        return lines;
    }

    /** The project of the generated sessions {@code n}, {@code n + 5}, ... */
    private static String generated(int n) {
        return "/tmp/code-memory-bench/project-" + n;
    }

    /** Same memories in the same order, scores equal to 1e-4 (float32 cosines). */
    private static void assertSameRanking(String qid, List<Hit> actual, List<Hit> expected) {
        assertThat(actual).as(qid).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertThat(actual.get(i).score()).as(qid + " score " + i).isCloseTo(expected.get(i).score(), within(1e-4));
        }
        assertThat(ids(actual)).as(qid).isEqualTo(ids(expected));
    }

    private static List<String> ids(List<Hit> results) {
        return results.stream().map(Hit::memoryId).toList();
    }

    private static Map<String, List<Hit>> batchQuery(Path home, Path input, Path output) throws Exception {
        JobsJar.Result r = JobsJar.run(home, new byte[0], "query", "--input", input.toString(), "--output",
                output.toString(), "--top-k", "5");
        assertThat(r.exit()).as(r.stdout() + r.stderr()).isZero();
        Map<String, List<Hit>> out = new TreeMap<>();
        for (String line : Files.readAllLines(output)) {
            Map<?, ?> answer = (Map<?, ?>) Json.parse(line);
            List<Hit> results = new ArrayList<>();
            for (Object o : (List<?>) answer.get("results")) {
                Map<?, ?> hit = (Map<?, ?>) o;
                results.add(new Hit((String) hit.get("memory_id"), (String) hit.get("citation"),
                        Double.parseDouble(((Json.JsonNumber) hit.get("score")).literal())));
            }
            out.put((String) answer.get("qid"), results);
        }
        return out;
    }

    private static void assertSameVectors(Map<String, float[]> actual, Map<String, float[]> expected) {
        assertThat(new TreeSet<>(actual.keySet())).isEqualTo(new TreeSet<>(expected.keySet()));
        expected.forEach((id, vector) -> assertThat(actual.get(id)).as(id).containsExactly(vector, within(1e-6f)));
    }

    private static Map<String, float[]> duckVectors(Path home) throws SQLException {
        Map<String, float[]> out = new TreeMap<>();
        try (Connection c = JobsJar.duck(home);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT memory_id, vector::FLOAT[] FROM vectors_" + VERSION)) {
            while (rs.next()) {
                Array array = rs.getArray(2);
                Object[] values = (Object[]) array.getArray();
                float[] v = new float[values.length];
                for (int i = 0; i < v.length; i++) {
                    v[i] = ((Number) values[i]).floatValue();
                }
                out.put(rs.getString(1), v);
            }
        }
        return out;
    }

    private static void importHooks(Path home) throws Exception {
        JobsJar.Result imported = JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString());
        assertThat(imported.exit()).as(imported.stdout() + imported.stderr()).isZero();
    }

    private static List<String> strings(List<List<Object>> rows) {
        return rows.stream().map(r -> (String) r.get(0)).toList();
    }

    private record Hit(String memoryId, String citation, double score) {
    }

    /** A copy of a home (the database and settings; not its logs). */
    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (f.startsWith(from.resolve("logs"))) {
                    continue;
                }
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(f, target);
                }
            }
        }
        return to;
    }

}
