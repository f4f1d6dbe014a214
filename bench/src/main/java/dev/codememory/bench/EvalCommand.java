package dev.codememory.bench;

import dev.codememory.config.json.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eval --dev DIR [--home DIR] [--out DIR] [--set key=value …] [--jar FILE]}: the
 * retrieval eval harness, end to end. From an empty temporary home (or {@code --home}; a
 * home that already has a database is reused as is) it imports every
 * {@code hooks/*.jsonl} of the dev set and runs {@code --job=graduate} as child processes
 * of the product's {@code jobs.jar} ({@link ProductJar}), runs
 * {@code query --input … --output …} with each question in its conversation's project at
 * the question's time, maps each memory's source events back to dialog ids by (session
 * id, time) in the hooks files, writes {@code {"qid","ranked":[…]}} lines and prints
 * {@code score_retrieval.py
 * --markdown}.
 *
 * <p>
 * Only this harness reads the {@code locomo} key of the hooks files, and only to name
 * what the system returned.
 */
@Command(name = "eval", header = "the retrieval evaluation on a dev set", mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "The retrieval evaluation: takes a dev set (conversations as hook events, questions with the "
                + "turns that answer them) from an empty home through import, graduation and batch query to the "
                + "scorer's table (needs python3).")
public final class EvalCommand implements Callable<Integer> {

    private static final int MAX_RANKED = 100;
    static final double CORROBORATION = 0.1;

    @Option(names = "--dev", paramLabel = "DIR", required = true, description = "the dev set: hooks/*.jsonl "
            + "(conversations as hook events), queries.jsonl and score_retrieval.py")
    Path dev;

    @Option(names = "--home", paramLabel = "DIR", description = "reuse this home (graduated if it has a database)")
    Path home;

    @Option(names = "--out", paramLabel = "DIR", description = "where the answers and results go (default: HOME/eval)")
    Path outDir;

    @Option(names = "--top-k", paramLabel = "N", description = "memories per question (default: ${DEFAULT-VALUE})")
    int topK = 50;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a ranking setting")
    List<String> sets = new ArrayList<>();

    @Mixin
    ProductJar productJar;

    private final PrintStream out;

    private final PrintStream err;

    public EvalCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Path dev = this.dev;
        Path home = this.home;
        Path outDir = this.outDir;
        if (!Files.isDirectory(dev.resolve("hooks")) || !Files.isRegularFile(dev.resolve("queries.jsonl"))) {
            err.println("eval: --dev " + dev + " is not a dev set (it needs hooks/*.jsonl, queries.jsonl and "
                    + "score_retrieval.py)");
            return BenchMain.EXIT_USAGE;
        }
        Path jar = productJar.path();
        try {
            if (home == null) {
                home = Files.createTempDirectory("code-memory-eval");
            }
            if (outDir == null) {
                outDir = home.resolve("eval");
            }
            Files.createDirectories(outDir);
            List<Path> hooks;
            try (Stream<Path> files = Files.list(dev.resolve("hooks"))) {
                hooks = files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
            }
            if (!Files.exists(home.resolve("memory.duckdb"))) {
                for (Path h : hooks) {
                    child(jar, home, out, "import", "--hooks", h.toString());
                }
                long start = System.nanoTime();
                child(jar, home, out, "--job=graduate");
                out.printf("graduated in %d s%n", (System.nanoTime() - start) / 1_000_000_000);
            }
            else {
                out.println("reusing the graduated home " + home);
            }
            Map<String, String> cwdOfConversation = new HashMap<>();
            Map<String, String> dialogOfEvent = new HashMap<>();
            for (Path h : hooks) {
                readHooks(h, cwdOfConversation, dialogOfEvent);
            }
            Path queries = outDir.resolve("queries-input.jsonl");
            writeQueryInput(dev.resolve("queries.jsonl"), cwdOfConversation, queries);
            Path answers = outDir.resolve("query-output.jsonl");
            List<String> queryArgs = new ArrayList<>(List.of("query", "--input", queries.toString(), "--output",
                    answers.toString(), "--top-k", Integer.toString(topK)));
            for (String s : sets) {
                queryArgs.add("--set");
                queryArgs.add(s);
            }
            child(jar, home, out, queryArgs.toArray(String[]::new));
            Path results = outDir.resolve("results.jsonl");
            writeResults(answers, dialogOfEvent, results);
            out.println("results: " + results);
            Process score = new ProcessBuilder("python3", dev.resolve("score_retrieval.py").toString(), "--queries",
                    dev.resolve("queries.jsonl").toString(), "--results", results.toString(), "--markdown")
                .inheritIO()
                .start();
            return score.waitFor();
        }
        catch (IOException | RuntimeException e) {
            err.println("eval failed: " + e.getMessage());
            return 1;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * The conversation's cwd (its project) and, per (session id, time), the dialog's
     * event id.
     */
    static void readHooks(Path hooks, Map<String, String> cwdOfConversation, Map<String, String> dialogOfEvent)
            throws IOException {
        String conversation = hooks.getFileName().toString().replaceFirst("\\.jsonl$", "");
        for (String line : Files.readAllLines(hooks, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> e = (Map<?, ?>) Json.parse(line);
            cwdOfConversation.putIfAbsent(conversation, (String) e.get("cwd"));
            if (e.get("locomo") instanceof Map<?, ?> locomo && locomo.get("event_id") instanceof String id
                    && e.get("timestamp") instanceof String ts) {
                dialogOfEvent.putIfAbsent(key((String) e.get("session_id"), ts), id);
            }
        }
    }

    static String key(String sessionId, String ts) {
        return sessionId + "|" + OffsetDateTime.parse(ts).toInstant();
    }

    private static void writeQueryInput(Path queries, Map<String, String> cwdOfConversation, Path input)
            throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (String line : Files.readAllLines(queries, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                Map<?, ?> q = (Map<?, ?>) Json.parse(line);
                Map<String, Object> in = new LinkedHashMap<>();
                in.put("qid", q.get("qid"));
                in.put("text", q.get("question"));
                in.put("project", cwdOfConversation.get((String) q.get("conversation")));
                in.put("at", q.get("timestamp"));
                w.write(Json.write(in));
                w.newLine();
            }
        }
    }

    /**
     * The best of an event's scores plus {@link #CORROBORATION} of each of the others.
     */
    static double corroborated(List<Double> scores) {
        double best = Double.NEGATIVE_INFINITY;
        double sum = 0;
        for (double s : scores) {
            best = Math.max(best, s);
            sum += s;
        }
        return best + CORROBORATION * (sum - best);
    }

    /**
     * The answer's events ranked across all hits, each turn once: at its best source
     * score (a hit's score plus its event's query-term coverage, see
     * {@code RankedSource}) plus {@value #CORROBORATION} of each other score it has as a
     * source of another hit — an event that several memories cite is better evidence than
     * one that a single memory cites (measured on eval-dev: NDCG@10 +0.011 over the best
     * score alone, flat for weights 0.05–0.12). Equal scores keep answer order.
     */
    static void writeResults(Path answers, Map<String, String> dialogOfEvent, Path results) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(results, StandardCharsets.UTF_8)) {
            for (String line : Files.readAllLines(answers, StandardCharsets.UTF_8)) {
                Map<?, ?> a = (Map<?, ?>) Json.parse(line);
                Map<String, List<Double>> scores = new LinkedHashMap<>();
                for (Object r : (List<?>) a.get("results")) {
                    for (Object s : (List<?>) ((Map<?, ?>) r).get("sources")) {
                        Map<?, ?> src = (Map<?, ?>) s;
                        String id = dialogOfEvent.get(key((String) src.get("session_id"), (String) src.get("ts")));
                        double score = src.get("score") instanceof Json.JsonNumber n ? Double.parseDouble(n.literal())
                                : 0;
                        if (id != null) {
                            scores.computeIfAbsent(id, k -> new ArrayList<>()).add(score);
                        }
                    }
                }
                Map<String, Double> best = new LinkedHashMap<>();
                scores.forEach((id, list) -> best.put(id, corroborated(list)));
                List<String> ranked = new ArrayList<>(best.keySet());
                ranked.sort(Comparator.comparingDouble((String id) -> best.get(id)).reversed());
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("qid", a.get("qid"));
                row.put("ranked", new ArrayList<Object>(ranked.subList(0, Math.min(MAX_RANKED, ranked.size()))));
                w.write(Json.write(row));
                w.newLine();
            }
        }
    }

    private static void child(Path jar, Path home, PrintStream out, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CODE_MEMORY_HOME", home.toString());
        Process p = pb.start();
        try (var lines = p.inputReader(StandardCharsets.UTF_8).lines()) {
            lines.filter(l -> !l.contains(" INFO ") && !l.contains(" DEBUG ")).forEach(out::println);
        }
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", args) + " exited with " + exit);
        }
    }

}
