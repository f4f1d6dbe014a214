package dev.codememory.bench;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.team.TeamProperties;
import dev.codememory.jobs.invocation.QueryLogging;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.team.TeamSearch;
import dev.codememory.retrieval.team.TeamStores;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import io.milvus.v2.client.ConnectConfig;
import io.milvus.v2.client.MilvusClientV2;
import io.milvus.v2.service.collection.request.DropCollectionReq;
import io.milvus.v2.service.database.request.CreateDatabaseReq;
import io.milvus.v2.service.database.request.DropDatabaseReq;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench --team}: the team store at scale, on the servers named by
 * {@code --team-postgres} and {@code --team-milvus} (default: the test servers'
 * {@code CODE_MEMORY_TEST_POSTGRES_URL} and {@code MILVUS_URI}), in a schema and a Milvus
 * database of its own, dropped at the end.
 * <ul>
 * <li>publish: a home of N generated memories (the query bench's, every one of a
 * shareable kind) publishes them all with {@code --job=publish} in the product's jar:
 * wall time and memories per second;</li>
 * <li>the team query: another developer's home, with no memory of its own, queries the
 * project in process ({@link QueryService} with the team store): the first load of the N
 * team memories, then per-query latency with the query vector (BM25 over the team's
 * memories plus the team's Milvus collection) and without, and how often the memory asked
 * about is in the top 10.</li>
 * </ul>
 */
final class TeamBench {

    static final int TOP_K = 10;

    private final Path jar;

    private final PrintStream out;

    TeamBench(Path jar, PrintStream out) {
        this.jar = jar;
        this.out = out;
    }

    void run(Path work, int n, int queries, String postgresUrl, String milvusUri)
            throws IOException, InterruptedException, SQLException {
        if (postgresUrl == null || milvusUri == null) {
            throw new IllegalArgumentException("--team needs --team-postgres URL and --team-milvus URI (or"
                    + " CODE_MEMORY_TEST_POSTGRES_URL and MILVUS_URI)");
        }
        QueryLogging.toStderr();
        String schema = "cm_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String milvusDatabase = schema;
        milvus(milvusUri, null,
                admin -> admin.createDatabase(CreateDatabaseReq.builder().databaseName(milvusDatabase).build()));
        try {
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
            Path publisherProject = clone(work.resolve("publisher/project"));
            Path readerProject = clone(work.resolve("reader/project"));
            QueryBench.Fixture fixture;
            try (MiniLmOnnxEmbedder embedder = new MiniLmOnnxEmbedder(work.resolve("djl"),
                    MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE)) {
                fixture = new BenchHomes(out).build(work.resolve("publisher/home"),
                        new ProjectResolver().projectOf(publisherProject.toString()), n, queries, now, embedder);
                shareable(fixture);
                Files.writeString(fixture.root().resolve("application.yml"),
                        settings("bench-publisher", fixture.project(), postgresUrl, schema, milvusUri, milvusDatabase),
                        StandardCharsets.UTF_8);
                long start = System.nanoTime();
                String published = runJar(fixture.root(), "--job=publish");
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf("%n  publish %,d memories: %.1f s wall (%,.0f memories/s, JVM start included)%n", n, seconds,
                        n / seconds);
                published.lines().filter(l -> l.startsWith("  ")).forEach(l -> out.println("   " + l));
                long again = System.nanoTime();
                runJar(fixture.root(), "--job=publish");
                out.printf("  publish again (nothing new): %.1f s wall%n", (System.nanoTime() - again) / 1e9);

                latency(work.resolve("reader/home"), new ProjectResolver().projectOf(readerProject.toString()), fixture,
                        embedder.embed(fixture.questions()), now, postgresUrl, schema, milvusUri, milvusDatabase);
            }
        }
        finally {
            try (Connection c = DriverManager.getConnection(postgresUrl); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
            milvus(milvusUri, milvusDatabase, client -> {
                for (String collection : client.listCollections().getCollectionNames()) {
                    client.dropCollection(DropCollectionReq.builder().collectionName(collection).build());
                }
            });
            milvus(milvusUri, null,
                    admin -> admin.dropDatabase(DropDatabaseReq.builder().databaseName(milvusDatabase).build()));
        }
    }

    private static void milvus(String uri, String database, java.util.function.Consumer<MilvusClientV2> work) {
        ConnectConfig.ConnectConfigBuilder config = ConnectConfig.builder().uri(uri);
        if (database != null) {
            config.dbName(database);
        }
        MilvusClientV2 client = new MilvusClientV2(config.build());
        try {
            work.accept(client);
        }
        finally {
            client.close();
        }
    }

    private void latency(Path readerHome, String readerProject, QueryBench.Fixture fixture, float[][] vectors,
            LocalDateTime now, String postgresUrl, String schema, String milvusUri, String milvusDatabase) {
        CodeMemoryHome home = new CodeMemoryHome(readerHome).ensureCreated();
        try (DuckDb.Session created = DuckDb.forHome(home).open()) {
            // an empty local store, vectors table included: every answer comes from the
            // team
            new DuckDbVectorStore(created::connection, MiniLmOnnxEmbedder.VERSION).ensureReady();
        }
        TeamProperties team = new TeamProperties(true, "bench-reader", List.of(), null,
                new TeamProperties.Postgres(postgresUrl, null, null, schema),
                new TeamProperties.Milvus(milvusUri, null, milvusDatabase), Duration.ofSeconds(30), null, null);
        RankingSettings settings = RankingSettings.defaults();
        int queries = fixture.questions().size();
        long[] hybrid = new long[queries];
        long[] lexical = new long[queries];
        int[] found = new int[2];
        try (DuckDb.Session session = DuckDb.forHome(home).openReadOnly();
                QueryService service = new QueryService(session, () -> null,
                        () -> new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION), settings)
                    .withTeam(new TeamSearch(new TeamStores(team, MiniLmOnnxEmbedder.VERSION)))) {
            long start = System.nanoTime();
            int indexed = service.prepare(readerProject);
            long loadMs = (System.nanoTime() - start) / 1_000_000;
            out.printf("  team query: first load of the project (PostgreSQL read + BM25 index of %,d team memories)"
                    + " %d ms%n", indexed, loadMs);
            for (int round = -3; round < queries; round++) {
                int q = Math.floorMod(round, queries);
                QueryRequest request = new QueryRequest("q" + q, fixture.questions().get(q), readerProject, now);
                String target = BenchHomes.memoryId(fixture.targets()[q]);
                for (int k = 0; k < 2; k++) {
                    int mode = (round + 3 + k) % 2;
                    long t0 = System.nanoTime();
                    List<String> top = service.search(request, mode == 0 ? vectors[q] : null, TOP_K)
                        .stream()
                        .map(QueryResult::memoryId)
                        .toList();
                    long micros = (System.nanoTime() - t0) / 1_000;
                    if (round >= 0) {
                        (mode == 0 ? hybrid : lexical)[q] = micros;
                        if (top.contains(target)) {
                            found[mode]++;
                        }
                    }
                }
            }
            out.printf("  %s state after the run: %s%n", "team store", service.teamState());
        }
        line("team query, hybrid", hybrid, found[0], queries,
                "BM25 over the team's memories + the team's Milvus collection");
        line("team query, text only", lexical, found[1], queries, "no query vector");
    }

    private void line(String name, long[] micros, int found, int queries, String what) {
        long[] sorted = micros.clone();
        Arrays.sort(sorted);
        out.printf("  %-22s p50 %7.1f ms   p95 %7.1f ms   asked-about memory in top %d: %d/%d   (%s)%n", name,
                sorted[sorted.length / 2] / 1000.0,
                sorted[(int) Math.min(sorted.length - 1, sorted.length * 0.95)] / 1000.0, TOP_K, found, queries, what);
    }

    /**
     * Every generated memory of a kind that is never shared becomes a fact; all get a
     * done outbox row.
     */
    private static void shareable(QueryBench.Fixture fixture) throws SQLException {
        try (DuckDb.Session session = DuckDb.forHome(new CodeMemoryHome(fixture.root())).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("UPDATE entries SET entry_type = 'fact' WHERE entry_type NOT IN"
                    + " ('decision', 'preference', 'fact', 'work', 'insight')");
            st.execute("INSERT INTO vector_outbox SELECT entry_id, '" + MiniLmOnnxEmbedder.VERSION.id()
                    + "', 'upsert', 'done', 1, NULL, now() AT TIME ZONE 'UTC' FROM entries ON CONFLICT DO NOTHING");
        }
    }

    private static Path clone(Path project) throws IOException {
        Files.createDirectories(project.resolve(".git"));
        Files.writeString(project.resolve(".git/config"),
                "[remote \"origin\"]\n\turl = https://example.com/bench/team.git\n");
        return project;
    }

    private static String settings(String author, String project, String postgresUrl, String schema, String milvusUri,
            String milvusDatabase) {
        return """
                code-memory.team:
                  enabled: true
                  author: %s
                  projects: ["%s"]
                  postgres:
                    url: "%s"
                    schema: %s
                  milvus:
                    uri: %s
                    database: %s
                """.formatted(author, project, postgresUrl, schema, milvusUri, milvusDatabase);
    }

    private String runJar(Path home, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(BenchCommand.java(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put(CodeMemoryHome.ENV, home.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", args) + " failed:\n" + output);
        }
        return output;
    }

}
