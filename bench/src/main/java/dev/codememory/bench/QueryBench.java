package dev.codememory.bench;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.jobs.invocation.QueryLogging;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code bench.jar bench --query [--memories 10000,100000] [--queries N] [--runs N]}: the
 * query path's figures, each against a baseline measured in the same run (this machine's
 * cores are shared and noisy).
 * <ol>
 * <li>For each size, a temporary home with that many verified, active memories in one
 * project ({@link BenchHomes}), then warm per-query latency through {@link QueryService}:
 * the hybrid search, the vector search it makes (the baseline: the same
 * {@link DuckDbVectorStore#search} call alone) and the lexical-only search, interleaved.
 * The memories the queries ask about get the model's vectors of their text, so the
 * ranking has something true to find; the others get vectors shaped like real ones
 * ({@link SubjectVectors}); query vectors come from the real model, embedded before
 * timing. Then the recall of the vector index serve builds ({@link VectorIndexRecall})
 * and serve itself ({@link ServeBench}).</li>
 * <li>The cold UserPromptSubmit hook on the smallest home, run as Claude Code runs it,
 * next to a capture-only PostToolUse hook and {@code java -version}, with what the hook
 * answered read from {@code logs/hook.log}.</li>
 * </ol>
 */
public final class QueryBench {

    static final int TOP_K = 10;
    static final int WARM_UP = 20;
    static final int HOOK_WARM_UP = 3;

    /**
     * Past this size the in-process baseline (DuckDB's exact scan per query) is left out:
     * it takes minutes.
     */
    static final int IN_PROCESS_LIMIT = 100_000;

    private final Path jar;

    private final PrintStream out;

    public QueryBench(Path jar, PrintStream out) {
        this.jar = jar;
        this.out = out;
    }

    /**
     * A home built for the bench: where it is, its project, and the questions asked of it
     * with their targets.
     */
    record Fixture(Path root, String project, int memories, List<String> questions, int[] targets) {

        Fixture {
            if (questions.size() != targets.length) {
                throw new IllegalArgumentException(questions.size() + " questions for " + targets.length + " targets");
            }
        }
    }

    /**
     * Runs the whole bench in {@code work}: a fresh temporary folder whose homes are
     * deleted afterwards, or, when {@code keep}, a folder whose homes stay for the next
     * run, which reuses them instead of building them again.
     */
    public void run(Path work, int[] sizes, int queries, int runs, boolean keep)
            throws IOException, InterruptedException {
        if (sizes.length == 0 || queries < 1 || runs < 1) {
            throw new IllegalArgumentException("--memories needs at least one size, --queries and --runs at least 1");
        }
        if (queries > Arrays.stream(sizes).min().getAsInt()) {
            throw new IllegalArgumentException("--queries " + queries + " exceeds the smallest --memories size");
        }
        QueryLogging.toStderr();
        Path projectDir = Files.createDirectories(work.resolve("project"));
        String project = new ProjectResolver().projectOf(projectDir.toString());
        LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);
        Fixture hookHome = null;
        BenchHomes homes = new BenchHomes(out);
        long loadStart = System.nanoTime();
        try (MiniLmOnnxEmbedder embedder = new MiniLmOnnxEmbedder(work.resolve("djl"),
                MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE)) {
            out.printf("%nquery: model %s loaded in %d ms (for query vectors and the asked-about memories only)%n",
                    MiniLmOnnxEmbedder.VERSION.id(), (System.nanoTime() - loadStart) / 1_000_000);
            for (int n : Arrays.stream(sizes).sorted().toArray()) {
                Path root = work.resolve("home-" + n);
                Fixture fixture = keep && Files.exists(root.resolve("memory.duckdb"))
                        ? homes.reuse(root, project, n, queries)
                        : homes.build(root, project, n, queries, now, embedder);
                if (n <= IN_PROCESS_LIMIT) {
                    latency(fixture, embedder, now);
                }
                new VectorIndexRecall(out).run(fixture, embedder);
                new ServeBench(jar, out).run(fixture, projectDir, runs, n == Arrays.stream(sizes).min().getAsInt());
                if (hookHome == null) {
                    hookHome = fixture;
                }
                else if (!keep) {
                    delete(fixture.root());
                }
            }
        }
        hookBench(hookHome, projectDir, runs);
        if (!keep) {
            delete(work);
        }
    }

    // ----------------------------------------------------------------------------------------------
    // warm queries

    private void latency(Fixture f, Embedder embedder, LocalDateTime now) {
        float[][] vectors = embedder.embed(f.questions());
        RankingSettings settings = RankingSettings.defaults();
        VectorFilter filter = VectorFilter.project(f.project());
        int queries = f.questions().size();
        long[] hybrid = new long[queries];
        long[] vector = new long[queries];
        long[] lexical = new long[queries];
        int[] found = new int[3];
        // read-only, as the hook opens it; a fresh open, so the first prepare reads
        // through a cold DuckDB cache
        try (DuckDb.Session session = DuckDb.forHome(new CodeMemoryHome(f.root())).openReadOnly();
                QueryService first = new QueryService(session, QueryBench::noEmbedder,
                        () -> new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION), settings);
                QueryService service = new QueryService(session, QueryBench::noEmbedder,
                        () -> new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION), settings)) {
            long start = System.nanoTime();
            int indexed = first.prepare(f.project());
            long coldMs = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            service.prepare(f.project());
            long againMs = (System.nanoTime() - start) / 1_000_000;
            DuckDbVectorStore store = new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION);
            for (int round = -WARM_UP; round < queries; round++) {
                int q = Math.floorMod(round, queries);
                QueryRequest request = new QueryRequest("q" + q, f.questions().get(q), f.project(), now);
                String target = BenchHomes.memoryId(f.targets()[q]);
                long[] micros = new long[3];
                List<String> top = null;
                for (int k = 0; k < 3; k++) { // rotate the order, so no mode always runs
                                              // right after another
                    int mode = (round + WARM_UP + k) % 3;
                    long t0 = System.nanoTime();
                    top = switch (mode) {
                        case 0 -> store.search(vectors[q], settings.candidates(), filter)
                            .stream()
                            .limit(TOP_K)
                            .map(VectorHit::memoryId)
                            .toList();
                        case 1 ->
                            service.search(request, vectors[q], TOP_K).stream().map(QueryResult::memoryId).toList();
                        default -> service.search(request, null, TOP_K).stream().map(QueryResult::memoryId).toList();
                    };
                    micros[mode] = (System.nanoTime() - t0) / 1_000;
                    if (round >= 0 && top.contains(target)) {
                        found[mode]++;
                    }
                }
                if (round >= 0) {
                    vector[q] = micros[0];
                    hybrid[q] = micros[1];
                    lexical[q] = micros[2];
                }
            }
            out.printf("  prepare (read + BM25 index of %,d memories)   first %5d ms   again %5d ms%n", indexed, coldMs,
                    againMs);
        }
        out.printf("  %d queries, top-%d, modes interleaved after %d warm-up rounds; per query:%n", queries, TOP_K,
                WARM_UP);
        line("vector search alone", vector, found[0], queries,
                "DuckDbVectorStore.search, top-" + settings.candidates() + " as hybrid asks, same filter");
        line("hybrid search", hybrid, found[1], queries, "QueryService.search with the query vector");
        line("lexical only", lexical, found[2], queries, "QueryService.search without a vector");
        out.printf("  hybrid / vector       p50 %5.1fx   p95 %5.1fx      lexical / vector   p50 %5.1fx%n",
                ratio(hybrid, vector, true), ratio(hybrid, vector, false), ratio(lexical, vector, true));
    }

    private void line(String name, long[] micros, int found, int queries, String what) {
        out.printf("  %-20s  p50 %7.1f ms   p95 %7.1f ms   target in top-%d %3d/%d   (%s)%n", name,
                BenchCommand.median(micros) / 1000.0, BenchCommand.p95(micros) / 1000.0, TOP_K, found, queries, what);
    }

    private static double ratio(long[] a, long[] b, boolean median) {
        return median ? (double) BenchCommand.median(a) / Math.max(1, BenchCommand.median(b))
                : (double) BenchCommand.p95(a) / Math.max(1, BenchCommand.p95(b));
    }

    private static Embedder noEmbedder() {
        throw new IllegalStateException("the bench embeds its queries before timing");
    }

    // ----------------------------------------------------------------------------------------------
    // cold hook

    /** What one hook process took and printed. */
    record HookRun(long millis, String stdout) {
    }

    private void hookBench(Fixture f, Path projectDir, int runs) throws IOException, InterruptedException {
        List<String> hook = BenchCommand.hookCommand(jar);
        List<String> version = List.of(BenchCommand.java(), "-version");
        byte[] toolUse = json(hookEvent(projectDir, "PostToolUse",
                Map.of("tool_name", "Bash", "tool_input", Map.of("command", "./mvnw -q test"), "tool_response",
                        Map.of("stdout", "Tests run: 12, Failures: 0", "exit_code", 0), "tool_use_id", "toolu_bench",
                        "duration_ms", 5120)));
        Path hookLog = new CodeMemoryHome(f.root()).logs().resolve("hook.log");
        for (int i = 0; i < HOOK_WARM_UP; i++) { // page cache, and the model unpacked
                                                 // into the home by the first
            launch(version, new byte[0], f.root());
            launch(hook, prompt(f, projectDir, i), f.root());
            launch(hook, toolUse, f.root());
        }
        long logLines = Files.exists(hookLog) ? Files.readAllLines(hookLog).size() : 0;
        long[] versionMs = new long[runs];
        long[] promptMs = new long[runs];
        long[] toolMs = new long[runs];
        int printed = 0;
        for (int i = 0; i < runs; i++) { // interleaved, so all see the same noise
            versionMs[i] = launch(version, new byte[0], f.root()).millis();
            HookRun r = launch(hook, prompt(f, projectDir, HOOK_WARM_UP + i), f.root());
            promptMs[i] = r.millis();
            if (r.stdout().contains("\"hookSpecificOutput\"")) {
                printed++;
            }
            toolMs[i] = launch(hook, toolUse, f.root()).millis();
        }
        List<String> log = Files.exists(hookLog) ? Files.readAllLines(hookLog) : List.of();
        List<String> runLog = log.subList((int) Math.min(logLines, log.size()), log.size());
        long withVectors = runLog.stream()
            .filter(l -> l.contains("UserPromptSubmit context:") && l.contains("text and vectors"))
            .count();
        long textOnly = runLog.stream()
            .filter(l -> l.contains("UserPromptSubmit context:") && l.contains("text only"))
            .count();
        long nothing = runLog.stream()
            .filter(l -> l.contains("UserPromptSubmit context:") && l.contains("nothing injected"))
            .count();
        long overBudget = runLog.stream()
            .filter(l -> l.contains("ERROR UserPromptSubmit context") && l.contains("not ready within the budget"))
            .count();
        long otherErrors = runLog.stream().filter(l -> l.contains("ERROR")).count() - overBudget;
        out.printf(
                "%nhook on the %,d-memory home: %d cold runs each, interleaved after %d warm-up rounds, context"
                        + " budget at its default (2500 ms; command: %s)%n",
                f.memories(), runs, HOOK_WARM_UP, String.join(" ", hook));
        out.printf("  java -version                  median %5d ms   p95 %5d ms%n", BenchCommand.median(versionMs),
                BenchCommand.p95(versionMs));
        out.printf("  PostToolUse (capture only)     median %5d ms   p95 %5d ms   %5.2fx java -version%n",
                BenchCommand.median(toolMs), BenchCommand.p95(toolMs),
                (double) BenchCommand.median(toolMs) / BenchCommand.median(versionMs));
        out.printf(
                "  UserPromptSubmit (context)     median %5d ms   p95 %5d ms   %5.2fx java -version, %5.2fx"
                        + " PostToolUse%n",
                BenchCommand.median(promptMs), BenchCommand.p95(promptMs),
                (double) BenchCommand.median(promptMs) / BenchCommand.median(versionMs),
                (double) BenchCommand.median(promptMs) / BenchCommand.median(toolMs));
        out.printf(
                "  printed context in %d of %d runs; hook.log, UserPromptSubmit context: %d answered with text"
                        + " and vectors, %d text only (no query vector within the budget), %d skipped past the budget,"
                        + " %d other errors; %d with nothing to inject%n",
                printed, runs, withVectors, textOnly, overBudget, otherErrors, nothing);
    }

    static byte[] prompt(Fixture f, Path projectDir, int run) {
        String question = f.questions().get(run % f.questions().size());
        return json(hookEvent(projectDir, "UserPromptSubmit", Map.of("prompt", question)));
    }

    private static Map<String, Object> hookEvent(Path projectDir, String name, Map<String, Object> fields) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("session_id", "bench-hook");
        event.put("transcript_path", "/tmp/bench-hook.jsonl");
        event.put("cwd", projectDir.toString());
        event.put("permission_mode", "default");
        event.put("hook_event_name", name);
        event.putAll(fields);
        return event;
    }

    private static byte[] json(Map<String, Object> event) {
        return Json.write(event).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Runs one child process with the home set and the context settings at their
     * defaults; returns its wall time (start to exit) and stdout.
     */
    static HookRun launch(List<String> command, byte[] stdin, Path home) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put(CodeMemoryHome.ENV, home.toString());
        pb.environment().remove("CODE_MEMORY_CONTEXT");
        pb.environment().remove("CODE_MEMORY_CONTEXT_BUDGET_MS");
        long start = System.nanoTime();
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin);
        }
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(1, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + String.join(" ", command));
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (p.exitValue() != 0) {
            throw new IllegalStateException("exit " + p.exitValue() + ": " + String.join(" ", command));
        }
        return new HookRun(ms, stdout);
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** {@code "10000,100000"} → the sizes, each at least 1. */
    public static int[] sizes(String list) {
        int[] sizes = Arrays.stream(list.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .mapToInt(s -> Integer.parseInt(s.replace("_", "")))
            .toArray();
        if (sizes.length == 0 || Arrays.stream(sizes).anyMatch(s -> s < 1)) {
            throw new IllegalArgumentException("--memories: positive sizes separated by commas, was '" + list + "'");
        }
        return sizes;
    }

}
