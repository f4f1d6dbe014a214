package dev.codememory.jobs.mcp;

import dev.codememory.config.json.Json;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The stdio side of {@code mcp}: newline-delimited JSON-RPC on stdin and stdout, on the
 * JDK alone until the first tool call.
 *
 * <p>
 * Claude Code starts one {@code mcp} process per session and waits for its
 * {@code initialize} answer, while loading the MCP SDK, Jackson, Reactor and Logback
 * takes about two seconds on two busy cores. So {@code initialize}, {@code ping} and
 * {@code tools/list} are answered here from {@link ToolCatalog} (the same answers the SDK
 * gives, a test compares them), and the SDK server (the <em>engine</em>,
 * {@link McpCommand#engine}) starts on a background thread right after
 * {@code initialize}. It gets the client's own {@code initialize} replayed under an id of
 * ours (its answer is dropped) and {@code notifications/initialized}, then, from the
 * first message that is not one of those three, every message in order; its answers go to
 * stdout as they are. A message that arrives before the engine is ready waits for it.
 *
 * <p>
 * A line that is not a JSON-RPC 2.0 message is answered here and never reaches the engine
 * (the SDK's stdio transport ends its session at the first line it cannot read, and
 * answers nothing after it): one that is not JSON with a parse error (-32700), one that
 * is not a request, notification or response with an invalid-request error (-32600), both
 * with the request's id where it has a valid one, else null. Reading goes on with the
 * next line.
 *
 * <p>
 * At the end of stdin every request already forwarded is answered before the engine's
 * input ends (the SDK drops what it has not answered by then) and the process ends.
 */
public final class McpStdio {

    /**
     * The protocol versions the SDK speaks (the constants are inlined: naming them loads
     * no SDK class).
     */
    static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2024_11_05,
            ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

    /** The id under which the client's {@code initialize} is replayed to the engine. */
    static final String HANDSHAKE_ID = "code-memory-handshake";

    /** How long the end of stdin waits for forwarded requests to be answered. */
    private static final Duration DRAIN = Duration.ofMinutes(3);

    /** JSON-RPC's code for a line that is not JSON. */
    static final int PARSE_ERROR = -32700;

    /** JSON-RPC's code for JSON that is not a request, notification or response. */
    static final int INVALID_REQUEST = -32600;

    /** Starts the SDK server on these streams; the result closes it. */
    @FunctionalInterface
    interface Engine {

        AutoCloseable start(InputStream in, OutputStream out) throws Exception;

        /**
         * Whether the engine's own reader takes this message; one it cannot read would
         * end its session. Asked once the engine has started.
         */
        default boolean reads(String line) {
            return true;
        }

    }

    private final BufferedReader in;

    private final OutputStream out;

    private final Engine engine;

    private final Feed feed = new Feed();

    /** Counted down once the engine takes client messages (or failed to start). */
    private final CountDownLatch open = new CountDownLatch(1);

    private final CountDownLatch handshake = new CountDownLatch(1);

    private final Object answers = new Object();

    private int pending;

    private Thread starter;

    private volatile AutoCloseable running;

    private volatile String failure;

    private boolean forwarding;

    McpStdio(InputStream in, OutputStream out, Engine engine) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
        this.engine = engine;
    }

    /**
     * {@code mcp}: the protocol on this process's stdin and stdout; anything else printed
     * goes to stderr.
     */
    public static int run() {
        PrintStream protocol = System.out;
        System.setOut(System.err); // nothing but the protocol on stdout
        return new McpStdio(System.in, protocol, new SdkEngine()).serve();
    }

    /**
     * {@link McpCommand#engine}; a class rather than a method reference, whose bootstrap
     * would cost {@code initialize} tens of milliseconds (so do the lambdas left out
     * below).
     */
    private static final class SdkEngine implements Engine {

        @Override
        public AutoCloseable start(InputStream in, OutputStream out) {
            return McpCommand.engine(in, out);
        }

        @Override
        public boolean reads(String line) {
            return McpCommand.reads(line);
        }

    }

    /** Reads stdin to its end; returns the exit code once every request is answered. */
    int serve() {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Object parsed;
                try {
                    parsed = Json.parse(line);
                }
                catch (RuntimeException e) {
                    write(error(null, PARSE_ERROR, "Parse error: " + e.getMessage()));
                    continue;
                }
                String invalid = invalid(parsed);
                if (invalid != null) {
                    write(error(validId(parsed), INVALID_REQUEST, "Invalid Request: " + invalid));
                    continue;
                }
                Map<?, ?> message = (Map<?, ?>) parsed;
                if (forwarding || !answeredHere(message)) {
                    forward(line, message);
                }
            }
        }
        catch (IOException | UncheckedIOException e) {
            System.err.println("code-memory mcp: stdin or stdout failed: " + e);
        }
        drain(); // the SDK drops what it has not answered when its input ends
        feed.end();
        AutoCloseable server = running;
        if (server != null) {
            try {
                server.close();
            }
            catch (Exception e) {
                System.err.println("code-memory mcp: closing: " + e);
            }
        }
        return 0;
    }

    /**
     * Why a parsed line is not a JSON-RPC 2.0 request, notification or response (null: it
     * is one). A batch (an array) is not taken: MCP has none since 2025-06-18, and the
     * SDK reads none.
     */
    static String invalid(Object parsed) {
        if (!(parsed instanceof Map<?, ?> message)) {
            return "a message is a JSON object";
        }
        if (!"2.0".equals(message.get("jsonrpc"))) {
            return "jsonrpc must be \"2.0\"";
        }
        if (message.containsKey("id") && validId(message) == null) {
            return "id must be a string or a number";
        }
        if (message.containsKey("method")) {
            if (!(message.get("method") instanceof String)) {
                return "method must be a string";
            }
            Object params = message.get("params");
            if (params != null && !(params instanceof Map<?, ?>) && !(params instanceof List<?>)) {
                return "params must be an object or an array";
            }
            return null;
        }
        if (!message.containsKey("id")) {
            return "a request has a method and an id, a notification a method, a response an id";
        }
        if (message.containsKey("result") == message.containsKey("error")) {
            return "a message without a method is a response, with either a result or an error";
        }
        return null;
    }

    /** The message's id when it is a string or a number, else null. */
    private static Object validId(Object parsed) {
        Object id = parsed instanceof Map<?, ?> message ? message.get("id") : null;
        return id instanceof String || id instanceof Json.JsonNumber ? id : null;
    }

    /**
     * {@code initialize}, {@code ping}, {@code tools/list} and the client's notifications
     * before the first forwarded message; false for anything else.
     */
    private boolean answeredHere(Map<?, ?> message) {
        Object id = message.get("id");
        Object method = message.get("method");
        if (!(method instanceof String name)) {
            return false;
        }
        if (id == null) {
            return name.startsWith("notifications/"); // the engine gets its own
                                                      // initialized
        }
        switch (name) {
            case "initialize" -> {
                Map<?, ?> params = message.get("params") instanceof Map<?, ?> p ? p : Map.of();
                write(result(id, initializeResult(params.get("protocolVersion"))));
                start(message);
                return true;
            }
            case "tools/list" -> {
                write(result(id, toolsList()));
                return true;
            }
            case "ping" -> {
                write(result(id, Map.of()));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** The answer to {@code initialize}, as the SDK gives it for this server. */
    static Map<String, Object> initializeResult(Object requestedVersion) {
        Map<String, Object> tools = new LinkedHashMap<>();
        tools.put("listChanged", false);
        Map<String, Object> capabilities = new LinkedHashMap<>();
        capabilities.put("logging", Map.of());
        capabilities.put("tools", tools);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", ToolCatalog.SERVER_NAME);
        info.put("version", ToolCatalog.SERVER_VERSION);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("protocolVersion", PROTOCOL_VERSIONS.contains(requestedVersion) ? requestedVersion
                : PROTOCOL_VERSIONS.get(PROTOCOL_VERSIONS.size() - 1));
        result.put("capabilities", capabilities);
        result.put("serverInfo", info);
        result.put("instructions", ToolCatalog.INSTRUCTIONS);
        return result;
    }

    /** The answer to {@code tools/list}, as the SDK gives it for {@link ToolCatalog}. */
    static Map<String, Object> toolsList() {
        List<Map<String, Object>> tools = new java.util.ArrayList<>();
        for (ToolCatalog.Tool tool : ToolCatalog.TOOLS) {
            Map<String, Object> annotations = new LinkedHashMap<>();
            annotations.put("title", tool.title());
            annotations.put("readOnlyHint", tool.readOnly());
            annotations.put("destructiveHint", false);
            annotations.put("idempotentHint", tool.readOnly());
            annotations.put("openWorldHint", false);
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("name", tool.name());
            t.put("title", tool.title());
            t.put("description", tool.description());
            t.put("inputSchema", tool.inputSchema());
            t.put("annotations", annotations);
            tools.add(t);
        }
        return Map.of("tools", tools);
    }

    private static String error(Object id, int code, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("jsonrpc", "2.0");
        answer.put("id", id);
        answer.put("error", error);
        return Json.write(answer);
    }

    private static String result(Object id, Object result) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("jsonrpc", "2.0");
        answer.put("id", id);
        answer.put("result", result);
        return Json.write(answer);
    }

    /**
     * Starts the engine on its own thread, replaying {@code initialize} (null: none came)
     * first.
     */
    private void start(Map<?, ?> initialize) {
        if (starter != null) {
            return;
        }
        if (initialize != null) {
            Map<Object, Object> replay = new LinkedHashMap<>(initialize);
            replay.put("id", HANDSHAKE_ID);
            feed.put(Json.write(replay));
        }
        else {
            handshake.countDown();
        }
        starter = new Thread("mcp-engine-start") {
            @Override
            public void run() {
                startEngine(initialize != null);
            }
        };
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * On the starter thread: the engine, its answer to the replayed handshake, then
     * {@code notifications/initialized}; client messages may follow.
     */
    private void startEngine(boolean replayed) {
        try {
            running = engine.start(feed, new Answers());
            if (!handshake.await(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                failure = "the MCP server did not answer its initialize";
            }
            else if (replayed) {
                feed.put("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            }
        }
        catch (Exception | Error e) {
            failure = "the MCP server did not start: " + e;
            System.err.println("code-memory mcp: " + failure);
        }
        finally {
            open.countDown();
        }
    }

    /**
     * Hands a message to the engine, in order, once it is ready; a request it cannot take
     * is answered with an internal error.
     */
    private void forward(String line, Map<?, ?> message) {
        forwarding = true;
        start(null);
        try {
            open.await();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean request = message.get("method") != null && message.get("id") != null;
        if (failure != null) {
            if (request) {
                write(error(message.get("id"), -32603, "code-memory: " + failure));
            }
            return;
        }
        if (!engine.reads(line)) {
            // JSON-RPC, but past what the engine's parser takes (a number of 1,000
            // digits, say)
            write(error(validId(message), INVALID_REQUEST, "Invalid Request: the MCP server cannot read this message"));
            return;
        }
        if (request) {
            synchronized (answers) {
                pending++;
            }
        }
        feed.put(line);
    }

    /** Waits until every forwarded request has its answer (or the engine is gone). */
    private void drain() {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        synchronized (answers) {
            while (pending > 0 && failure == null && System.nanoTime() < deadline) {
                try {
                    answers.wait(100);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void write(String line) {
        synchronized (out) {
            try {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Map<?, ?> parse(String line) {
        try {
            return Json.parse(line) instanceof Map<?, ?> m ? m : null;
        }
        catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The engine's stdout, a line at a time: the answer to the replayed handshake is
     * dropped, every other line goes to ours.
     */
    private final class Answers extends OutputStream {

        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                emit(line.toString(StandardCharsets.UTF_8));
                line.reset();
            }
            else {
                line.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    line.write(b, start, i - start);
                    emit(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                    start = i + 1;
                }
            }
            line.write(b, start, off + len - start);
        }

        private void emit(String text) {
            if (text.isBlank()) {
                return;
            }
            Map<?, ?> message = parse(text);
            Object id = message == null ? null : message.get("id");
            if (HANDSHAKE_ID.equals(id)) {
                handshake.countDown();
                return;
            }
            McpStdio.this.write(text);
            if (id != null && message.get("method") == null) {
                synchronized (answers) {
                    pending--;
                    answers.notifyAll();
                }
            }
        }

    }

    /**
     * The engine's stdin: lines handed over by the reading thread, in order; ends after
     * {@link #end()}.
     */
    static final class Feed extends InputStream {

        private static final byte[] END = new byte[0];

        private final BlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();

        private byte[] current = new byte[0];

        private int pos;

        private boolean ended;

        void put(String line) {
            lines.add((line + "\n").getBytes(StandardCharsets.UTF_8));
        }

        void end() {
            lines.add(END);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (pos == current.length) {
                if (ended) {
                    return -1;
                }
                try {
                    current = lines.take();
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("mcp feed");
                }
                pos = 0;
                if (current == END) {
                    ended = true;
                    return -1;
                }
            }
            int n = Math.min(len, current.length - pos);
            System.arraycopy(current, pos, b, off, n);
            pos += n;
            return n;
        }

    }

}
