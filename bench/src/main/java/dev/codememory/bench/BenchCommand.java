package dev.codememory.bench;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.jobs.fixtures.GeneratedSessions;
import dev.codememory.jobs.hook.HookTraining;
import dev.codememory.jobs.install.InstallCommand;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.vector.EmbeddingService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench.jar bench [--runs N] [--events N] [--jar FILE]}: prints the foundation's
 * figures, each against a baseline measured in the same run (this machine's cores are
 * shared and noisy):
 * <ul>
 * <li>hook wall time over N cold processes (median, p95), interleaved with
 * {@code java -version}: a small Edit event, and a Bash event with 100 KB of output
 * (code, logs, config lines, a few secrets) to redact;</li>
 * <li>ingest throughput: N generated events spooled, then {@code --job=ingest} in a fresh
 * process, reported both as the step's own rate and as whole-process wall time.</li>
 * </ul>
 * {@code --graduation}, {@code --embedding}, {@code --query} ({@link QueryBench}: query
 * latency at 10k and 100k memories, the cold UserPromptSubmit hook) and {@code --mcp}
 * ({@link McpBench}: the MCP server's {@code initialize} and {@code mem-search}) run one
 * of the other benches instead. Works in a temporary home; nothing of the user's is
 * touched. The processes it times run the product's {@code jobs.jar}
 * ({@link ProductJar}).
 */
@Command(name = "bench", header = "hook start-up, ingest, graduation, embedding and query benchmarks",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the hook's cold wall time next to `java -version`'s and the ingest throughput, in a "
                + "temporary home; --graduation, --embedding, --query or --mcp runs one of the other benches instead.")
public final class BenchCommand implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--graduation", description = "generated sessions through graduation: each stage's counts and time")
    boolean graduation;

    @Option(names = "--embedding",
            description = "memories as long as real ones: the embedder as it was and each embedding decision against"
                    + " raw ONNX Runtime, the embed step, and vector search latency")
    boolean embedding;

    @Option(names = "--query", description = "query latency at the given sizes, and the cold prompt hook")
    boolean query;

    @Option(names = "--mcp",
            description = "the MCP server on the demo home: initialize with and without mcp.jsa, mem-search cold and "
                    + "through serve")
    boolean mcp;

    @Option(names = "--team",
            description = "the team store: --job=publish of --memories memories (default 100,000), then the team "
                    + "query's latency from another home; on --team-postgres and --team-milvus")
    boolean team;

    @Option(names = "--team-postgres", paramLabel = "JDBC-URL",
            description = "--team: a PostgreSQL database to create a throwaway schema in (default: "
                    + "$CODE_MEMORY_TEST_POSTGRES_URL)")
    String teamPostgres = System.getenv("CODE_MEMORY_TEST_POSTGRES_URL");

    @Option(names = "--team-milvus", paramLabel = "URI",
            description = "--team: a Milvus server to create a throwaway database in (default: $MILVUS_URI)")
    String teamMilvus = System.getenv("MILVUS_URI");

    @Option(names = "--runs", paramLabel = "N",
            description = "cold process runs (default: 30; 20 with --query, 15 with --mcp)")
    Integer runsOption;

    @Option(names = "--events", paramLabel = "N", description = "events (default: 100,000; 50,000 with --graduation)")
    Integer eventsOption;

    @Option(names = "--texts", paramLabel = "N", description = "--embedding: texts (default: ${DEFAULT-VALUE})")
    int texts = 1000;

    @Option(names = "--step-only",
            description = "--embedding: only the whole embed step between two runs of the old embedder")
    boolean stepOnly;

    @Option(names = "--memories", paramLabel = "N,N", description = "--query: home sizes (default: ${DEFAULT-VALUE})")
    String memories = "10000,100000";

    @Option(names = "--queries", paramLabel = "N",
            description = "--query: queries per size (default: ${DEFAULT-VALUE})")
    int queries = 200;

    @Option(names = "--work", paramLabel = "DIR", description = "--query: build the homes in DIR and keep them;"
            + " a home already built there (same DIR, size and --queries) is reused")
    Path work;

    @Mixin
    ProductJar productJar;

    @Override
    public Integer call() {
        int runs = runsOption != null ? runsOption : query ? 20 : mcp ? 15 : 30;
        if (embedding) {
            return embeddingBench(texts, stepOnly);
        }
        int events = eventsOption != null ? eventsOption : graduation ? 50_000 : 100_000;
        Path jar = productJar.path();
        try {
            Path home = Files.createTempDirectory("code-memory-bench");
            System.out.printf("code-memory bench — %d cores, java %s, jar %s%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), jar);
            if (graduation) {
                graduationBench(jar, home.resolve("graduation-home"), events);
                return 0;
            }
            if (mcp) {
                new McpBench(jar, System.out).run(home.resolve("mcp-home"), runs);
                return 0;
            }
            if (team) {
                int n = memories.equals("10000,100000") ? 100_000 : QueryBench.sizes(memories)[0];
                System.out.printf("%nteam: %,d memories, %d queries%n", n, Math.min(queries, 100));
                new TeamBench(jar, System.out).run(home.resolve("team"), n, Math.min(queries, 100), teamPostgres,
                        teamMilvus);
                return 0;
            }
            if (query) {
                QueryBench bench = new QueryBench(jar, System.out);
                if (work != null) {
                    Files.delete(home);
                    bench.run(Files.createDirectories(work), QueryBench.sizes(memories), queries, runs, true);
                }
                else {
                    bench.run(home.resolve("query"), QueryBench.sizes(memories), queries, runs, false);
                }
                return 0;
            }
            hookBench(jar, home.resolve("hook-home"), runs);
            ingestBench(jar, home.resolve("ingest-home"), events);
            return 0;
        }
        catch (IOException | InterruptedException | RuntimeException | java.sql.SQLException e) {
            System.err.println("bench failed: " + e);
            return 1;
        }
    }

    /**
     * Runs the in-process embedding bench in a temporary home, with the product's
     * application context (its embed step, the real model) started in this process.
     */
    private static int embeddingBench(int texts, boolean stepOnly) {
        try {
            Path home = Files.createTempDirectory("code-memory-bench-embedding");
            System.setProperty(CodeMemoryHome.PROPERTY, home.toString());
            System.out.printf("code-memory bench — %d cores, java %s%n", Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"));
            return CodeMemoryApplication.run(new String[] { "--logging.level.dev.codememory=WARN" },
                    CodeMemoryApplication.Console.QUIET,
                    context -> new EmbeddingBench(context.getBean(JobRunner.class), context.getBean(JobDatabase.class),
                            context.getBean(EmbeddingService.class),
                            context.getBean(CodeMemoryProperties.class).embedding().threads())
                        .run(System.out, texts, stepOnly));
        }
        catch (IOException e) {
            System.err.println("bench failed: " + e);
            return 1;
        }
    }

    /**
     * The command the README registers with Claude Code, with this JVM's {@code java}.
     */
    static List<String> hookCommand(Path jar) {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(InstallCommand.hookArguments(jar));
        return command;
    }

    private static void hookBench(Path jar, Path home, int runs) throws IOException, InterruptedException {
        byte[] payload = ("{\"session_id\":\"bench\",\"transcript_path\":\"/tmp/t.jsonl\",\"cwd\":\"/tmp\","
                + "\"permission_mode\":\"default\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Edit\","
                + "\"tool_input\":{\"file_path\":\"/tmp/Main.java\",\"old_string\":\"int a = 1;\","
                + "\"new_string\":\"int a = 2; // <private>not for memory</private>\"},"
                + "\"tool_response\":{\"filePath\":\"/tmp/Main.java\",\"success\":true},"
                + "\"tool_use_id\":\"toolu_bench\",\"duration_ms\":7}")
            .getBytes(StandardCharsets.UTF_8);
        byte[] large = HookTraining.toolOutputEvent(100 * 1024).getBytes(StandardCharsets.UTF_8);
        List<String> hook = hookCommand(jar);
        List<String> plainHook = List.of(java(), "-jar", jar.toString(), "hook");
        List<String> version = List.of(java(), "-version");
        for (int i = 0; i < 3; i++) { // warm the page cache for all of them
            time(hook, payload, home);
            time(hook, large, home);
            time(plainHook, payload, home);
            time(version, new byte[0], home);
        }
        long[] hookMs = new long[runs];
        long[] largeMs = new long[runs];
        long[] plainMs = new long[runs];
        long[] versionMs = new long[runs];
        for (int i = 0; i < runs; i++) { // interleaved, so all see the same noise
            versionMs[i] = time(version, new byte[0], home);
            hookMs[i] = time(hook, payload, home);
            largeMs[i] = time(hook, large, home);
            plainMs[i] = time(plainHook, payload, home);
        }
        long lines = Files.readAllLines(home.resolve("spool/current.jsonl")).size();
        System.out.printf("%nhook: %d cold runs each, interleaved (command: %s)%n", runs, String.join(" ", hook));
        System.out.printf("  java -version   median %4d ms   p95 %4d ms%n", median(versionMs), p95(versionMs));
        System.out.printf("  hook            median %4d ms   p95 %4d ms   %.2fx java -version%n", median(hookMs),
                p95(hookMs), (double) median(hookMs) / median(versionMs));
        System.out.printf(
                "  hook, 100 KB    median %4d ms   p95 %4d ms   %.2fx java -version (%d bytes of tool output)%n",
                median(largeMs), p95(largeMs), (double) median(largeMs) / median(versionMs), large.length);
        System.out.printf("  hook, no flags  median %4d ms   p95 %4d ms   %.2fx (java -jar jobs.jar hook)%n",
                median(plainMs), p95(plainMs), (double) median(plainMs) / median(versionMs));
        System.out.printf("  spooled lines: %d (expected %d)%n", lines, 3 * (runs + 3));
    }

    private static void ingestBench(Path jar, Path home, int events)
            throws IOException, InterruptedException, java.sql.SQLException {
        CodeMemoryHome cmh = new CodeMemoryHome(home).ensureCreated();
        Spool spool = Spool.forHome(cmh);
        SpoolLineBuilder builder = SpoolLineBuilder.defaults();
        long t0 = System.nanoTime();
        List<String> batch = new ArrayList<>(10_000);
        String[] kinds = { "UserPromptSubmit", "PostToolUse", "PostToolUse", "PostToolUse", "Stop" };
        for (int i = 0; i < events; i++) {
            String session = "s" + (i / 200);
            String kind = kinds[i % kinds.length];
            String body = switch (kind) {
                case "UserPromptSubmit" ->
                    "\"prompt\":\"please refactor the retry logic in module " + i + " and keep the public API stable\"";
                case "Stop" -> "\"stop_hook_active\":false,\"last_assistant_message\":\"Done: I moved the retry "
                        + "policy into RetryPolicy.java and added tests for case " + i + ".\"";
                default -> "\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"./mvnw -q test -Dtest=Case" + i
                        + "\"},\"tool_response\":{\"stdout\":\"Tests run: 12, Failures: 0\",\"exit_code\":0},"
                        + "\"tool_use_id\":\"toolu_" + i + "\",\"duration_ms\":" + (i % 5000);
            };
            String json = "{\"session_id\":\"" + session + "\",\"transcript_path\":\"/tmp/" + session
                    + ".jsonl\",\"cwd\":\"/tmp/project\",\"hook_event_name\":\"" + kind + "\"," + body + "}";
            batch.add(builder.build(json.getBytes(StandardCharsets.UTF_8), Instant.now(), "hook", null).json());
            if (batch.size() == 10_000) {
                spool.appendAll(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            spool.appendAll(batch);
        }
        long spoolMs = (System.nanoTime() - t0) / 1_000_000;
        long spoolBytes = Files.size(spool.currentFile());
        List<String> command = List.of(java(), "-jar", jar.toString(), "--job=ingest");
        long wallMs = time(command, new byte[0], home);
        long count;
        long stepMs;
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + cmh.database(), readOnly);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM events")) {
                rs.next();
                count = rs.getLong(1);
            }
            try (ResultSet rs = st
                .executeQuery("SELECT duration_ms FROM pipeline_metrics WHERE step_name = 'ingestSpoolStep'")) {
                stepMs = rs.next() ? rs.getLong(1) : -1;
            }
        }
        System.out.printf("%ningest: %d events (%.1f MB of spool, built and spooled in %d ms)%n", events,
                spoolBytes / 1e6, spoolMs);
        System.out.printf("  ingestSpoolStep %6d ms   %8.0f events/s%n", stepMs, count * 1000.0 / Math.max(1, stepMs));
        System.out.printf("  whole process   %6d ms   %8.0f events/s (JVM + Spring start included)%n", wallMs,
                count * 1000.0 / Math.max(1, wallMs));
        System.out.printf("  events in DuckDB: %d (expected %d)%n", count, events);
    }

    /**
     * Generated Claude Code sessions (prompts, tool calls, replies that state decisions,
     * preferences, tasks and insights), imported with fixed timestamps, then one
     * {@code --job=graduate}. Reports each step's counts and time from
     * {@code pipeline_metrics}, the stages' throughput without ingest and embedding, the
     * ingest step's, the texts embedded (per second and per 1,000 events), when the
     * newest two weeks had vectors (from the embed step's progress in the job's log) and
     * the whole time, import included.
     */
    private static void graduationBench(Path jar, Path home, int events)
            throws IOException, InterruptedException, java.sql.SQLException {
        CodeMemoryHome cmh = new CodeMemoryHome(home).ensureCreated();
        Path hooks = home.resolveSibling("generated-hooks.jsonl");
        int written = GeneratedSessions.write(hooks, events);
        long importMs = time(List.of(java(), "-jar", jar.toString(), "import", "--hooks", hooks.toString()),
                new byte[0], home, GRADUATION_TIMEOUT_MINUTES);
        Instant graduationStart = Instant.now();
        long wallMs = time(List.of(java(), "-jar", jar.toString(), "--job=graduate"), new byte[0], home,
                GRADUATION_TIMEOUT_MINUTES);
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        System.out.printf("%ngraduation: %d generated events in %d sessions%n", written,
                written / GeneratedSessions.EVENTS_PER_SESSION);
        long stagesMs = 0;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + cmh.database(), readOnly);
                Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("""
                    SELECT step_name, read_count, write_count, duration_ms FROM pipeline_metrics
                    ORDER BY step_execution_id""")) {
                while (rs.next()) {
                    String step = rs.getString(1);
                    boolean ingest = Set.of("sealSpoolStep", "ingestSpoolStep", "deleteIngestedSpoolStep")
                        .contains(step);
                    boolean embedding = step.equals("embedMemoriesStep");
                    if (!ingest && !embedding) {
                        stagesMs += rs.getLong(4);
                    }
                    System.out.printf("  %-26s read %7d  written %7d  %7d ms%s%n", step, rs.getLong(2), rs.getLong(3),
                            rs.getLong(4),
                            ingest ? "   (ingest, excluded)" : embedding ? "   (embedding, excluded)" : "");
                }
            }
            try (ResultSet rs = st.executeQuery("""
                    SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM entries WHERE stage = 'verified'),
                           (SELECT count(*) FROM entries WHERE stage <> 'verified'),
                           (SELECT count(*) FROM entities WHERE entity_type = 'task'),
                           (SELECT count(*) FROM entries WHERE entry_type = 'topic' AND status = 'active'),
                           (SELECT count(*) FROM session_continuity)""")) {
                rs.next();
                System.out.printf(
                        "  events %d, verified entries %d, other entries %d, tasks %d, active topics %d,"
                                + " sessions scored for continuity %d%n",
                        rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6));
                System.out.printf(
                        "  graduation stages without ingest and embedding: %d ms = %.0f events/s"
                                + " (whole process %d ms)%n",
                        stagesMs, rs.getLong(1) * 1000.0 / Math.max(1, stagesMs), wallMs);
            }
            long ingestMs = stepMs(st, "ingestSpoolStep");
            long embedMs = stepMs(st, "embedMemoriesStep");
            long embedded = 0;
            LocalDateTime newest = null;
            try (ResultSet rs = st.executeQuery(
                    """
                            SELECT (SELECT coalesce(sum(write_count), 0) FROM pipeline_metrics WHERE step_name = 'embedMemoriesStep'),
                                   (SELECT max(ts) FROM events)""")) {
                rs.next();
                embedded = rs.getLong(1);
                newest = rs.getObject(2, LocalDateTime.class);
            }
            System.out.printf("  ingest: %d ms = %.0f events/s (import into the spool before it: %d ms)%n", ingestMs,
                    written * 1000.0 / Math.max(1, ingestMs), importMs);
            System.out.printf("  embedding: %d texts, %.0f per 1,000 events, %.1f texts/s%n", embedded,
                    embedded * 1000.0 / Math.max(1, written), embedded * 1000.0 / Math.max(1, embedMs));
            Duration recent = newest == null ? null : untilVectorsReach(cmh.logs().resolve("jobs.log"), graduationStart,
                    newest.toLocalDate().minusDays(14));
            System.out.printf("  newest two weeks with vectors after %s, everything after %.1f min (import included)%n",
                    recent == null ? "the whole run"
                            : String.format("%.1f min", (importMs + recent.toMillis()) / 60_000.0),
                    (importMs + wallMs) / 60_000.0);
        }
    }

    private static final int GRADUATION_TIMEOUT_MINUTES = 180;

    private static final Pattern VECTORS_SINCE = Pattern
        .compile("^(\\S+Z) .*memories since (\\d{4}-\\d{2}-\\d{2}) have vectors");

    private static long stepMs(Statement st, String step) throws java.sql.SQLException {
        try (ResultSet rs = st.executeQuery(
                "SELECT coalesce(sum(duration_ms), 0) FROM pipeline_metrics WHERE step_name = '" + step + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * When the embed step's progress first said that memories back to {@code since} had
     * vectors, counted from {@code start}, read from the job's log (the step embeds the
     * newest memories first); null when no progress line said so (a run short enough to
     * embed everything between two lines).
     */
    static Duration untilVectorsReach(Path log, Instant start, LocalDate since) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.map(VECTORS_SINCE::matcher)
                .filter(Matcher::find)
                .filter(m -> !LocalDate.parse(m.group(2)).isAfter(since))
                .map(m -> Duration.between(start, Instant.parse(m.group(1))))
                .filter(d -> !d.isNegative())
                .findFirst()
                .orElse(null);
        }
    }

    private static long time(List<String> command, byte[] stdin, Path home) throws IOException, InterruptedException {
        return time(command, stdin, home, 10);
    }

    static long time(List<String> command, byte[] stdin, Path home, int timeoutMinutes)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put(CodeMemoryHome.ENV, home.toString());
        long start = System.nanoTime();
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            in.write(stdin);
        }
        if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + String.join(" ", command));
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (p.exitValue() != 0) {
            throw new IllegalStateException("exit " + p.exitValue() + ": " + String.join(" ", command));
        }
        return ms;
    }

    /** The middle value (the upper one of an even count). */
    public static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** The nearest-rank 95th percentile. */
    public static long p95(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(sorted.length * 0.95) - 1];
    }

    /** The java launcher of the running JDK. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

}
