package dev.codememory.jobs.client;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
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
import java.util.OptionalInt;

/**
 * The client side of {@code serve}'s socket ({@code serve.sock} in the home), on the JDK
 * alone: the hook runs it in a fresh JVM on every prompt, so it loads no Spring, no
 * DuckDB, no model, no JSON library beyond the hook's own {@link Json}.
 *
 * <p>
 * The protocol is one JSON object per line, UTF-8, each way. A request names its
 * {@code op}; the answer is any number of {@code {"out":…}} / {@code {"err":…}} lines
 * (what the command prints, as it prints it) and one final line carrying {@code "exit"}
 * and, for the hook, its stdout and its log lines. A connection carries one request.
 *
 * <p>
 * Every way serve may fail to answer — no socket file, nobody listening (a socket left by
 * a process that died), no answer by the deadline, the connection dropped mid-answer, a
 * line that is not JSON — comes back as "no answer" (empty), and the caller does the work
 * itself.
 */
public final class ServeClient {

    /** The socket's file name in the home. */
    public static final String SOCKET = "serve.sock";

    /**
     * The commands serve runs for a command line: every one that opens the database
     * ({@code search} is {@code query}). {@code demo} is not among them: it works in a
     * home of its own.
     */
    public static final java.util.Set<String> COMMANDS = java.util.Set.of("query", "search", "show", "tasks", "task",
            "blocked", "stats", "history", "export", "forget", "import", "endless", "share", "distill");

    private final Path socket;

    /**
     * The connection {@link #connectAhead} is making (null when it was not asked for),
     * and what it made: a channel, or null when nobody listens.
     */
    private Thread connecting;

    private volatile SocketChannel connected;

    public ServeClient(Path socket) {
        this.socket = socket;
    }

    /**
     * Starts connecting on a daemon thread, for the hook to overlap with spooling its
     * event: a fresh JVM's first Unix-domain socket costs 30–80 ms on two busy cores (the
     * JDK's socket support initialises a SecureRandom and its security providers), as
     * much as reading, redacting and syncing the event. The next request uses this
     * connection.
     */
    public ServeClient connectAhead() {
        if (Files.exists(socket)) {
            connecting = new Thread(new Connecting(), "code-memory-connect");
            connecting.setDaemon(true);
            connecting.start();
        }
        return this;
    }

    /**
     * {@link #connectAhead}'s work, as a class rather than a lambda: a fresh JVM's first
     * lambda costs ~4 ms of bootstrap, which would delay the connection the hook waits
     * for.
     */
    private final class Connecting implements Runnable {

        @Override
        public void run() {
            try {
                connected = connect();
            }
            catch (IOException | RuntimeException e) {
                connected = null;
            }
        }

    }

    /**
     * The connection started ahead, once made (waiting until {@code deadline} at most),
     * or a new one.
     */
    private SocketChannel connection(Instant deadline) throws IOException {
        Thread ahead = connecting;
        if (ahead == null) {
            return connect();
        }
        connecting = null;
        try {
            long wait = deadline == null ? 0 : Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
            ahead.join(wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ahead.isAlive() ? null : connected;
    }

    public static ServeClient forHome(CodeMemoryHome home) {
        return new ServeClient(home.root().resolve(SOCKET));
    }

    /**
     * What serve answered to a hook event: the hook's stdout (null: print nothing) and
     * lines for hook.log.
     */
    public record HookAnswer(String stdout, List<String> info, List<String> errors) {
    }

    /**
     * Asks serve for the context of a spooled UserPromptSubmit or SessionStart line,
     * waiting until {@code deadline} at most.
     */
    public Optional<HookAnswer> hook(String spoolLine, Instant started, Instant deadline) {
        try (AskedHook asked = askHook(spoolLine, started, deadline)) {
            return asked.answer();
        }
    }

    /**
     * Sends serve the request for the context of a UserPromptSubmit or SessionStart line
     * and returns at once, so that serve works while the hook syncs the line to the
     * spool; {@link AskedHook#answer} then waits for it until {@code deadline} at most.
     */
    public AskedHook askHook(String spoolLine, Instant started, Instant deadline) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "hook");
        request.put("line", spoolLine);
        request.put("started", started.toEpochMilli());
        request.put("deadline", deadline.toEpochMilli());
        SocketChannel channel = null;
        try {
            channel = connection(deadline);
            if (channel != null) {
                write(channel, request);
            }
            return new AskedHook(channel, deadline);
        }
        catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            return new AskedHook(null, deadline);
        }
    }

    /** A hook request serve is working on (no channel: nobody to ask). */
    public static final class AskedHook implements AutoCloseable {

        private final SocketChannel channel;

        private final Instant deadline;

        private AskedHook(SocketChannel channel, Instant deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }

        /**
         * What serve answered, or empty when it did not answer by the deadline or failed
         * to work one out: the hook then answers on its own.
         */
        public Optional<HookAnswer> answer() {
            if (channel == null) {
                return Optional.empty();
            }
            Optional<Map<?, ?>> last;
            try {
                last = readAnswer(channel, deadline, line -> {
                });
            }
            catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
            if (last.isEmpty() || !(last.get().get("exit") instanceof Json.JsonNumber n) || !"0".equals(n.literal())) {
                return Optional.empty();
            }
            Map<?, ?> answer = last.get();
            return Optional.of(new HookAnswer(answer.get("stdout") instanceof String s ? s : null,
                    strings(answer.get("info")), strings(answer.get("errors"))));
        }

        @Override
        public void close() {
            closeQuietly(channel);
        }

    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            }
            catch (IOException e) {
                // nothing more to read from it
            }
        }
    }

    /**
     * Runs a command in serve ({@link #COMMANDS}: its arguments as typed, relative paths
     * resolved against {@code cwd}, dates read in this process's time zone), printing
     * what it prints as it prints it. Empty when serve is not running: run it here.
     */
    public OptionalInt command(String[] args, Path cwd, PrintStream out, PrintStream err) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "command");
        request.put("args", List.of(args));
        request.put("cwd", cwd.toAbsolutePath().toString());
        request.put("zone", java.time.ZoneId.systemDefault().getId());
        request.put("terminal", System.console() != null);
        return stream(request, out, err);
    }

    /**
     * Has serve run a job ({@code --job=NAME}), printing its progress and result. Empty
     * when serve is not running.
     */
    public OptionalInt job(String name, PrintStream out, PrintStream err) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "job");
        request.put("name", name);
        return stream(request, out, err);
    }

    /**
     * Any request; its final line, or empty when serve does not answer by the deadline.
     */
    public Optional<Map<?, ?>> call(Map<String, Object> request, Instant deadline) {
        return exchange(request, deadline, line -> {
        });
    }

    /**
     * NAME when the command line asks for a job ({@code --job=NAME} or
     * {@code --job NAME}, with or without other options and {@code key=value} arguments),
     * else empty.
     */
    public static Optional<String> jobName(String[] args) {
        if (args.length == 0 || !args[0].startsWith("-")) {
            return Optional.empty(); // a command, not the job runner
        }
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--job=") && args[i].length() > "--job=".length()) {
                return Optional.of(args[i].substring("--job=".length()));
            }
            if (args[i].equals("--job") && i + 1 < args.length) {
                return Optional.of(args[i + 1]);
            }
        }
        return Optional.empty();
    }

    /** Whether serve answers on this home's socket now. */
    public boolean running() {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("op", "ping");
        return exchange(request, Instant.now().plus(Duration.ofSeconds(2)), line -> {
        }).isPresent();
    }

    private OptionalInt stream(Map<String, Object> request, PrintStream out, PrintStream err) {
        boolean[] started = { false };
        Optional<Map<?, ?>> last;
        try (SocketChannel channel = connect()) {
            if (channel == null) {
                return OptionalInt.empty();
            }
            started[0] = true;
            last = read(channel, request, null, line -> {
                if (line.get("out") instanceof String s) {
                    out.print(s);
                    out.flush();
                }
                if (line.get("err") instanceof String s) {
                    err.print(s);
                    err.flush();
                }
            });
        }
        catch (IOException e) {
            if (!started[0]) {
                return OptionalInt.empty();
            }
            last = Optional.empty();
        }
        if (last.isPresent() && last.get().get("exit") instanceof Json.JsonNumber n) {
            return OptionalInt.of(Integer.parseInt(n.literal()));
        }
        err.println("code-memory serve stopped before it finished answering; see its log (logs/jobs.log)");
        return OptionalInt.of(1);
    }

    /**
     * The final line of serve's answer, or empty when there is none by the deadline
     * (null: no deadline).
     */
    private Optional<Map<?, ?>> exchange(Map<String, Object> request, Instant deadline,
            java.util.function.Consumer<Map<?, ?>> lines) {
        try (SocketChannel channel = connection(deadline)) {
            if (channel == null) {
                return Optional.empty();
            }
            return read(channel, request, deadline, lines);
        }
        catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A connected channel, or null when nobody listens on the socket (none there, or left
     * by a dead process).
     */
    private SocketChannel connect() throws IOException {
        if (!Files.exists(socket)) {
            return null;
        }
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            return channel;
        }
        catch (IOException e) {
            channel.close();
            return null;
        }
    }

    private static Optional<Map<?, ?>> read(SocketChannel channel, Map<String, Object> request, Instant deadline,
            java.util.function.Consumer<Map<?, ?>> lines) throws IOException {
        write(channel, request);
        return readAnswer(channel, deadline, lines);
    }

    private static void write(SocketChannel channel, Map<String, Object> request) throws IOException {
        ByteBuffer out = ByteBuffer.wrap((Json.write(request) + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }

    /** serve's answer lines, each to {@code lines}, until the final one. */
    private static Optional<Map<?, ?>> readAnswer(SocketChannel channel, Instant deadline,
            java.util.function.Consumer<Map<?, ?>> lines) throws IOException {
        channel.configureBlocking(false);
        ByteArrayOutputStream pending = new ByteArrayOutputStream();
        ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        try (Selector selector = Selector.open()) {
            channel.register(selector, SelectionKey.OP_READ);
            while (true) {
                long wait = deadline == null ? 0 : Duration.between(Instant.now(), deadline).toMillis();
                if (deadline != null && wait <= 0) {
                    return Optional.empty();
                }
                selector.select(wait);
                selector.selectedKeys().clear();
                int n;
                while ((n = channel.read(in)) > 0) {
                    in.flip();
                    for (int i = 0; i < in.limit(); i++) {
                        byte b = in.get(i);
                        if (b != '\n') {
                            pending.write(b);
                            continue;
                        }
                        Object parsed = Json.parse(pending.toString(StandardCharsets.UTF_8));
                        pending.reset();
                        if (!(parsed instanceof Map<?, ?> line)) {
                            return Optional.empty();
                        }
                        if (line.containsKey("exit")) {
                            return Optional.of(line);
                        }
                        lines.accept(line);
                    }
                    in.clear();
                }
                if (n < 0) {
                    return Optional.empty(); // serve closed the connection before its
                                             // final line
                }
            }
        }
    }

    private static List<String> strings(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

}
