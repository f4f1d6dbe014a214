package dev.codememory.bench;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.mcp.McpCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code bench --mcp}: the MCP server as Claude Code runs it (one {@code mcp} process per
 * session, the command {@code install} registers), on the demo's graduated home:
 * <ul>
 * <li>{@code initialize}: a fresh process each time, from its start to the answer on
 * stdout, with the class-data archive ({@code mcp.jsa}) and without, interleaved with
 * {@code java -version};</li>
 * <li>the first {@code mem-search} of a session (the SDK server starts behind the
 * answered {@code initialize}; the database is opened for the call);</li>
 * <li>{@code mem-search} in a running session, cold (the database opened read-only for
 * each call, the model loaded for each call) and through {@code serve} (warm model and
 * indexes), as the client sees it.</li>
 * </ul>
 */
final class McpBench {

    static final String PROJECT = "/home/demo/shop-api";

    static final List<String> QUERIES = List.of("invoices PostgreSQL", "why did the checkout tests fail on CI",
            "coupon before tax", "rate limit the public API", "wildcard imports", "constructor or field injection",
            "publish the release to Maven Central", "what database for invoices");

    private final Path jar;

    private final PrintStream out;

    McpBench(Path jar, PrintStream out) {
        this.jar = jar;
        this.out = out;
    }

    void run(Path home, int runs) throws IOException, InterruptedException {
        BenchCommand.time(List.of(BenchCommand.java(), "-jar", jar.toString(), "demo", "--home=" + home), new byte[0],
                home, 10);
        // the demo's last prompt is still in the spool
        BenchCommand.time(List.of(BenchCommand.java(), "-jar", jar.toString(), "--job=graduate"), new byte[0], home,
                10);
        List<String> archived = command(McpCommand.serverArguments(jar));
        List<String> plain = new ArrayList<>(archived);
        plain.removeIf(a -> a.startsWith("-XX:SharedArchiveFile="));
        out.printf("%nmcp on the demo home (%s), %d runs each, interleaved%n", home, runs);
        out.printf("  command: %s%n", String.join(" ", archived));
        if (archived.size() == plain.size()) {
            out.println("  (no mcp.jsa beside the jar: both rows run without the archive)");
        }
        List<String> version = List.of(BenchCommand.java(), "-version");
        for (int i = 0; i < 2; i++) { // warm the page cache
            initialize(archived, home);
            initialize(plain, home);
        }
        long[] versionMs = new long[runs];
        long[] archivedMs = new long[runs];
        long[] plainMs = new long[runs];
        long[] firstSearchMs = new long[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(version).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
            p.waitFor();
            versionMs[i] = (System.nanoTime() - t0) / 1_000_000;
            archivedMs[i] = initialize(archived, home);
            plainMs[i] = initialize(plain, home);
            try (Session s = Session.start(archived, home)) {
                long t = System.nanoTime();
                s.search(QUERIES.get(i % QUERIES.size()));
                firstSearchMs[i] = (System.nanoTime() - t) / 1_000_000;
            }
        }
        row("java -version", versionMs, versionMs);
        row("initialize, mcp.jsa", archivedMs, versionMs);
        row("initialize, no archive", plainMs, versionMs);
        row("first mem-search (cold)", firstSearchMs, null);
        out.println("    (from the session's initialize answer: the SDK server starting behind it, then the call)");

        long[] cold = searches(archived, home, runs);
        row("mem-search, cold", cold, null);
        Path log = home.resolveSibling(home.getFileName() + "-serve.out");
        ProcessBuilder pb = new ProcessBuilder(BenchCommand.java(), "-jar", jar.toString(), "serve",
                "--code-memory.schedule.enabled=false")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
        pb.environment().put(CodeMemoryHome.ENV, home.toString());
        Process serve = pb.start();
        try {
            awaitWarm(home, serve, log);
            long[] served = searches(archived, home, runs);
            row("mem-search, through serve", served, null);
        }
        finally {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    private void row(String name, long[] ms, long[] baseline) {
        out.printf("  %-28s median %5d ms   p95 %5d ms%s%n", name, BenchCommand.median(ms), BenchCommand.p95(ms),
                baseline == null || baseline == ms ? "" : String.format("   %5.2fx java -version",
                        (double) BenchCommand.median(ms) / BenchCommand.median(baseline)));
    }

    /**
     * {@code runs} searches in one session after two unmeasured ones; checks serve
     * answered them or not as expected through the stats line.
     */
    private long[] searches(List<String> command, Path home, int runs) throws IOException, InterruptedException {
        long[] ms = new long[runs];
        try (Session s = Session.start(command, home)) {
            s.search(QUERIES.get(0));
            s.search(QUERIES.get(1));
            for (int i = 0; i < runs; i++) {
                long t = System.nanoTime();
                String text = s.search(QUERIES.get(i % QUERIES.size()));
                ms[i] = (System.nanoTime() - t) / 1_000_000;
                if (!text.contains("[mem:")) {
                    throw new IllegalStateException("mem-search found nothing: " + text);
                }
            }
        }
        return ms;
    }

    private static List<String> command(List<String> serverArguments) {
        List<String> command = new ArrayList<>(List.of(BenchCommand.java()));
        command.addAll(serverArguments);
        return command;
    }

    /** A fresh process, from its start to the {@code initialize} answer. */
    private static long initialize(List<String> command, Path home) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        try (Session s = Session.start(command, home)) {
            return (System.nanoTime() - t0) / 1_000_000;
        }
    }

    private static void awaitWarm(Path home, Process serve, Path log) throws IOException, InterruptedException {
        ServeClient client = ServeClient.forHome(new CodeMemoryHome(home));
        Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
        while (Instant.now().isBefore(deadline)) {
            if (!serve.isAlive()) {
                throw new IllegalStateException("serve exited " + serve.exitValue() + ":\n" + Files.readString(log));
            }
            Optional<Map<?, ?>> ping = client.call(Map.of("op", "ping"), Instant.now().plusSeconds(5));
            if (ping.isPresent() && Boolean.TRUE.equals(ping.get().get("warm"))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("serve not warm in 10 minutes");
    }

    /** One {@code mcp} process spoken to over stdio, one request at a time. */
    static final class Session implements AutoCloseable {

        private final Process process;

        private final OutputStream in;

        private final BufferedReader answers;

        private int ids;

        private Session(Process process) {
            this.process = process;
            this.in = process.getOutputStream();
            this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        /** Started and initialized (the {@code initialize} answer read). */
        static Session start(List<String> command, Path home) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put(CodeMemoryHome.ENV, home.toString());
            Session s = new Session(pb.start());
            s.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(), "clientInfo",
                    Map.of("name", "bench", "version", "1")));
            s.send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
            return s;
        }

        String search(String query) throws IOException {
            Map<?, ?> answer = request("tools/call",
                    Map.of("name", "mem-search", "arguments", Map.of("query", query, "project", PROJECT)));
            Map<?, ?> result = (Map<?, ?>) answer.get("result");
            if (result == null || Boolean.TRUE.equals(result.get("isError"))) {
                throw new IllegalStateException("mem-search failed: " + answer);
            }
            return String.valueOf(((Map<?, ?>) ((List<?>) result.get("content")).get(0)).get("text"));
        }

        private Map<?, ?> request(String method, Map<String, Object> params) throws IOException {
            int id = ++ids;
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("jsonrpc", "2.0");
            message.put("id", id);
            message.put("method", method);
            message.put("params", params);
            send(message);
            String line;
            while ((line = answers.readLine()) != null) {
                Map<?, ?> answer = (Map<?, ?>) Json.parse(line);
                Object got = answer.get("id") instanceof Json.JsonNumber n ? n.literal() : answer.get("id");
                if (String.valueOf(id).equals(String.valueOf(got))) {
                    return answer;
                }
            }
            throw new IllegalStateException("mcp ended before answering " + method);
        }

        private void send(Map<String, Object> message) throws IOException {
            in.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        @Override
        public void close() throws IOException {
            in.close();
            try {
                if (!process.waitFor(60, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }

    }

}
