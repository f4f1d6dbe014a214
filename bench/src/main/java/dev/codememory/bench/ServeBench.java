package dev.codememory.bench;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.client.ServeClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The {@code serve} half of {@code bench --query}, on a home built by {@link QueryBench}:
 * serve started as the README starts it (its schedule off, so it runs no job on the
 * generated home), then, once it is warm (model loaded, every project indexed, vector
 * graphs built),
 * <ul>
 * <li>warm hybrid search through the socket as the CLI asks for it: {@code query --json}
 * through the {@code command} request (embed the text, rank, attach sources, print),
 * round trip as a client sees it;</li>
 * <li>serve's resident set size;</li>
 * <li>the UserPromptSubmit hook end to end (a cold JVM, the README command, asking
 * serve), against {@code java -version} in the same run, with what {@code hook.log} says
 * answered ({@code source=}, {@code vectors=});</li>
 * <li>optionally the fault run: 100 hook calls with serve killed -9 during the 31st;
 * every call must exit 0 within the budget, those after it answered cold.</li>
 * </ul>
 */
final class ServeBench {

    static final int WARM_UP = 20;
    static final int FAULT_CALLS = 100;
    static final int KILL_AT = 30;

    private static final Duration WARM_TIMEOUT = Duration.ofHours(2);

    private final Path jar;

    private final PrintStream out;

    ServeBench(Path jar, PrintStream out) {
        this.jar = jar;
        this.out = out;
    }

    /** The README's serve command, for a home the bench built. */
    List<String> serveCommand() {
        return List.of(BenchCommand.java(), "-jar", jar.toString(), "serve", "--code-memory.schedule.enabled=false");
    }

    void run(QueryBench.Fixture f, Path projectDir, int runs, boolean faults) throws IOException, InterruptedException {
        Path log = f.root().resolveSibling(f.root().getFileName() + "-serve.out");
        ProcessBuilder pb = new ProcessBuilder(serveCommand()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(CodeMemoryHome.ENV, f.root().toString());
        long start = System.nanoTime();
        Process serve = pb.start();
        ServeClient client = ServeClient.forHome(new CodeMemoryHome(f.root()));
        try {
            long warmMs = awaitWarm(client, serve, log, start);
            long rssWarm = rssKb(client);
            out.printf(
                    "  serve (%s): warm in %.1f s (model, BM25 and vectors of %,d memories, graph if past the"
                            + " exact limit); RSS %d MB%n",
                    String.join(" ", serveCommand()), warmMs / 1000.0, f.memories(), rssWarm / 1024);
            search(client, f, projectDir);
            new ViewerBench(out).run(client, f);
            long rssBusy = rssKb(client);
            Thread.sleep(IDLE.toMillis()); // serve gives back what the burst of searches
                                           // took once it is idle
            out.printf("  serve RSS after the searches: %d MB, after %d s idle: %d MB (model loaded)%n", rssBusy / 1024,
                    IDLE.toSeconds(), rssKb(client) / 1024);
            hooks(f, projectDir, runs);
            if (faults) {
                faults(f, projectDir, serve);
            }
        }
        finally {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    private long awaitWarm(ServeClient client, Process serve, Path log, long start)
            throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(WARM_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!serve.isAlive()) {
                throw new IllegalStateException("serve exited " + serve.exitValue() + ":\n" + Files.readString(log));
            }
            Optional<Map<?, ?>> ping = client.call(Map.of("op", "ping"), Instant.now().plusSeconds(5));
            if (ping.isPresent() && Boolean.TRUE.equals(ping.get().get("warm"))) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("serve not warm within " + WARM_TIMEOUT);
    }

    private static long rssKb(ServeClient client) {
        return client.call(Map.of("op", "ping"), Instant.now().plusSeconds(10))
            .map(p -> Long.parseLong(((Json.JsonNumber) p.get("rss_kb")).literal()))
            .orElse(-1L);
    }

    /**
     * Each question as {@code query --json} typed in the project's directory, carried out
     * by serve through the {@code command} request (what the CLI does when serve runs):
     * the round trip as the client sees it (parse the command line, embed the text, rank,
     * attach sources, print the JSON). Serve's own split between embedding and ranking is
     * not visible from outside and is not reported.
     */
    private void search(ServeClient client, QueryBench.Fixture f, Path projectDir) {
        int queries = f.questions().size();
        long[] roundTrip = new long[queries];
        int found = 0;
        for (int round = -WARM_UP; round < queries; round++) {
            int q = Math.floorMod(round, queries);
            String[] args = { "query", "--json", "--top-k", String.valueOf(QueryBench.TOP_K), "--",
                    f.questions().get(q) };
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            long t0 = System.nanoTime();
            OptionalInt exit = client.command(args, projectDir, new PrintStream(printed, true, StandardCharsets.UTF_8),
                    new PrintStream(errors, true, StandardCharsets.UTF_8));
            long micros = (System.nanoTime() - t0) / 1_000;
            if (exit.isEmpty() || exit.getAsInt() != 0) {
                throw new IllegalStateException("serve did not answer `" + String.join(" ", args) + "`: "
                        + (exit.isEmpty() ? "no answer" : "exit " + exit.getAsInt()) + " "
                        + errors.toString(StandardCharsets.UTF_8));
            }
            if (round >= 0) {
                roundTrip[q] = micros;
                if (memoryIds(printed.toString(StandardCharsets.UTF_8)).contains(BenchHomes.memoryId(f.targets()[q]))) {
                    found++;
                }
            }
        }
        out.printf("  through serve, %d queries after %d warm-up, top-%d, each `query --json` through the command"
                + " request; per query:%n", queries, WARM_UP, QueryBench.TOP_K);
        out.printf("  %-28s p50 %7.1f ms   p95 %7.1f ms   target in top-%d %3d/%d%n", "hybrid search, round trip",
                BenchCommand.median(roundTrip) / 1000.0, BenchCommand.p95(roundTrip) / 1000.0, QueryBench.TOP_K, found,
                queries);
    }

    /** The memory ids of {@code query --json}'s results, best first. */
    static List<String> memoryIds(String json) {
        List<String> ids = new ArrayList<>();
        if (Json.parse(json) instanceof Map<?, ?> doc && doc.get("results") instanceof List<?> results) {
            for (Object result : results) {
                if (result instanceof Map<?, ?> r && r.get("memory_id") instanceof String id) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }

    /**
     * Longer than serve's wait before it compacts after answering (a minute) and its
     * check interval.
     */
    private static final java.time.Duration IDLE = java.time.Duration.ofSeconds(80);

    private void hooks(QueryBench.Fixture f, Path projectDir, int runs) throws IOException, InterruptedException {
        List<String> hook = BenchCommand.hookCommand(jar);
        List<String> version = List.of(BenchCommand.java(), "-version");
        Path hookLog = new CodeMemoryHome(f.root()).logs().resolve("hook.log");
        for (int i = 0; i < QueryBench.HOOK_WARM_UP; i++) {
            QueryBench.launch(version, new byte[0], f.root());
            QueryBench.launch(hook, QueryBench.prompt(f, projectDir, i), f.root());
        }
        int before = lines(hookLog).size();
        long[] versionMs = new long[runs];
        long[] promptMs = new long[runs];
        int printed = 0;
        for (int i = 0; i < runs; i++) {
            versionMs[i] = QueryBench.launch(version, new byte[0], f.root()).millis();
            QueryBench.HookRun r = QueryBench.launch(hook,
                    QueryBench.prompt(f, projectDir, QueryBench.HOOK_WARM_UP + i), f.root());
            promptMs[i] = r.millis();
            if (r.stdout().contains("\"hookSpecificOutput\"")) {
                printed++;
            }
        }
        List<String> runLog = after(lines(hookLog), before);
        out.printf("  hook with serve running, %d runs interleaved (command: %s)%n", runs, String.join(" ", hook));
        out.printf("    java -version                median %5d ms   p95 %5d ms%n", BenchCommand.median(versionMs),
                BenchCommand.p95(versionMs));
        out.printf("    UserPromptSubmit             median %5d ms   p95 %5d ms   %5.2fx java -version%n",
                BenchCommand.median(promptMs), BenchCommand.p95(promptMs),
                (double) BenchCommand.median(promptMs) / BenchCommand.median(versionMs));
        out.printf(
                "    printed context in %d of %d; hook.log: %d source=serve vectors=true, %d source=serve"
                        + " vectors=false, %d source=cold, %d errors%n",
                printed, runs, count(runLog, "source=serve vectors=true"), count(runLog, "source=serve vectors=false"),
                count(runLog, "source=cold"), count(runLog, "ERROR"));
    }

    /** 100 hook calls; serve is killed -9 50 ms into the 31st. */
    private void faults(QueryBench.Fixture f, Path projectDir, Process serve) throws IOException, InterruptedException {
        List<String> hook = BenchCommand.hookCommand(jar);
        Path hookLog = new CodeMemoryHome(f.root()).logs().resolve("hook.log");
        int before = lines(hookLog).size();
        long[] ms = new long[FAULT_CALLS];
        int failedExits = 0;
        for (int i = 0; i < FAULT_CALLS; i++) {
            Thread killer = null;
            if (i == KILL_AT) {
                killer = new Thread(() -> {
                    try {
                        Thread.sleep(50);
                    }
                    catch (InterruptedException e) {
                        return;
                    }
                    serve.destroyForcibly(); // SIGKILL
                });
                killer.start();
            }
            try {
                ms[i] = QueryBench.launch(hook, QueryBench.prompt(f, projectDir, i), f.root()).millis();
            }
            catch (IllegalStateException e) {
                failedExits++;
            }
            if (killer != null) {
                killer.join();
                serve.waitFor();
            }
        }
        List<String> runLog = after(lines(hookLog), before);
        long max = 0;
        for (long m : ms) {
            max = Math.max(max, m);
        }
        long overBudget = java.util.Arrays.stream(ms).filter(m -> m > 2_500).count();
        out.printf(
                "  faults: %d hook calls, serve killed -9 during call %d: %d exited non-zero, %d took over the"
                        + " 2.5 s budget (slowest %d ms); hook.log: %d source=serve, %d source=cold, %d other lines%n",
                FAULT_CALLS, KILL_AT + 1, failedExits, overBudget, max, count(runLog, "source=serve"),
                count(runLog, "source=cold"), runLog.size() - count(runLog, "source="));
    }

    private static List<String> lines(Path log) throws IOException {
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    private static List<String> after(List<String> lines, int before) {
        return new ArrayList<>(lines.subList(Math.min(before, lines.size()), lines.size()));
    }

    private static int count(List<String> lines, String word) {
        return (int) lines.stream().filter(l -> l.contains(word)).count();
    }

}
