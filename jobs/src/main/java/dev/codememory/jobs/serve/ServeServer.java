package dev.codememory.jobs.serve;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.client.ServeClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve}'s end of the socket ({@link ServeClient} describes the protocol): a Unix
 * domain socket in the home, owner-only, one request per connection. The caller has made
 * sure no other serve runs on the home, so a socket file found at start is a stale one
 * and is replaced.
 *
 * <p>
 * One thread accepts connections and reads their request lines, without blocking on any
 * of them: a connection has {@link #REQUEST_TIMEOUT} to send its line, at most
 * {@link #MAX_WAITING} wait for theirs at once (past that the one waiting longest is
 * closed), and none holds a worker while it sends. A complete request goes to the workers
 * of its purpose: the hook's context and {@code ping} to {@value #CONTEXT_WORKERS} of
 * their own, every other request ({@code command}, {@code job}, {@code mcp},
 * {@code viewer}) to {@value #COMMAND_WORKERS} others. So neither a client that never
 * finishes its request nor a long job holds up a hook waiting on its budget.
 */
public final class ServeServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServeServer.class);

    /** Workers for the hook's context and {@code ping}, never busy with anything else. */
    static final int CONTEXT_WORKERS = 4;

    /** Workers for commands, jobs, MCP calls and the viewer's address. */
    static final int COMMAND_WORKERS = 4;

    /** The requests the context workers answer. */
    private static final Set<String> CONTEXT_OPS = Set.of("hook", "ping");

    /** How long a connection may take to send its request line. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Connections still sending their request, at most; a new one past it closes the one
     * that has waited longest.
     */
    static final int MAX_WAITING = 64;

    private static final int MAX_REQUEST_BYTES = 64 * 1024 * 1024;

    /** Answers one request; writes through {@link Reply}. */
    @FunctionalInterface
    public interface Handler {

        void handle(Map<?, ?> request, Reply reply) throws Exception;

    }

    private final Path socket;

    private final ServerSocketChannel server;

    private final Selector selector;

    private final Handler handler;

    private final Duration requestTimeout;

    private final ExecutorService contextWorkers = workers(CONTEXT_WORKERS, "code-memory-serve-context");

    private final ExecutorService commandWorkers = workers(COMMAND_WORKERS, "code-memory-serve");

    /** The connections still sending their request, longest waiting first. */
    private final Map<SocketChannel, Waiting> waiting = new LinkedHashMap<>();

    private final ByteBuffer readBuffer = ByteBuffer.allocate(64 * 1024);

    private final Thread acceptor;

    private ServeServer(Path socket, ServerSocketChannel server, Handler handler, Duration requestTimeout)
            throws IOException {
        this.socket = socket;
        this.server = server;
        this.handler = handler;
        this.requestTimeout = requestTimeout;
        this.selector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.acceptor = new Thread(this::run, "code-memory-serve-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Binds the socket (replacing a stale file) and starts answering. */
    public static ServeServer start(Path socket, Handler handler) throws IOException {
        return start(socket, handler, REQUEST_TIMEOUT);
    }

    /** As {@link #start(Path, Handler)}, with another time allowed for a request line. */
    static ServeServer start(Path socket, Handler handler, Duration requestTimeout) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        }
        catch (UnsupportedOperationException e) {
            // not POSIX: the home folder is the owner's alone
        }
        try {
            return new ServeServer(socket, server, handler, requestTimeout);
        }
        catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static ExecutorService workers(int count, String name) {
        return Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    public Path socket() {
        return socket;
    }

    /**
     * The acceptor's loop: accepts, reads request lines as their bytes arrive, closes the
     * connections past their time, and hands each complete request to its workers.
     */
    private void run() {
        try {
            while (server.isOpen()) {
                selector.select(millisToNextTimeout());
                List<Waiting> complete = new ArrayList<>();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    }
                    else if (key.isReadable() && key.attachment() instanceof Waiting w && read(w)) {
                        key.cancel();
                        complete.add(w);
                    }
                }
                selector.selectedKeys().clear();
                closeTimedOut();
                if (!complete.isEmpty()) {
                    selector.selectNow(); // deregisters the cancelled keys: the channels
                                          // may then block
                    complete.forEach(this::dispatch);
                }
            }
        }
        catch (ClosedSelectorException e) {
            // closed
        }
        catch (IOException | RuntimeException e) {
            if (server.isOpen()) {
                log.error("serve socket: the acceptor stopped: {}", e.toString());
            }
        }
        finally {
            waiting.keySet().forEach(ServeServer::closeQuietly);
            waiting.clear();
        }
    }

    private long millisToNextTimeout() {
        if (waiting.isEmpty()) {
            return 0; // until a connection or close()
        }
        long nanos = waiting.values().iterator().next().deadline - System.nanoTime();
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos) + 1);
    }

    private void accept() {
        try {
            SocketChannel client;
            while ((client = server.accept()) != null) {
                startReading(client);
            }
        }
        catch (ClosedChannelException e) {
            // closing
        }
        catch (IOException e) {
            log.warn("serve socket: {}", e.getMessage());
        }
    }

    /** Starts reading a new connection's request. */
    private void startReading(SocketChannel client) {
        if (waiting.size() >= MAX_WAITING) {
            Waiting oldest = waiting.values().iterator().next();
            log.warn("serve socket: {} connections have not sent their request; closing the oldest", waiting.size());
            refuse(oldest, "too many connections waiting to send their request");
        }
        try {
            client.configureBlocking(false);
            Waiting w = new Waiting(client, System.nanoTime() + requestTimeout.toNanos());
            client.register(selector, SelectionKey.OP_READ, w);
            waiting.put(client, w);
        }
        catch (IOException e) {
            log.debug("serve: client went away: {}", e.getMessage());
            closeQuietly(client);
        }
    }

    /**
     * Reads what the connection has sent; true once its request line is complete (and
     * parsed). A connection that ends, sends too much or sends a line that is not a
     * request is answered (where it still listens) and closed.
     */
    private boolean read(Waiting w) {
        try {
            readBuffer.clear();
            int n = w.channel.read(readBuffer);
            if (n < 0) {
                waiting.remove(w.channel);
                closeQuietly(w.channel); // gone before a full line: nobody to answer
                return false;
            }
            // copied in bulk up to the end of the line: a byte at a time, a long request
            // would hold up every other connection here
            byte[] bytes = readBuffer.array();
            int newline = 0;
            while (newline < n && bytes[newline] != '\n') {
                newline++;
            }
            w.line.write(bytes, 0, newline);
            if (w.line.size() > MAX_REQUEST_BYTES) {
                throw new IllegalArgumentException("request over " + MAX_REQUEST_BYTES + " bytes");
            }
            if (newline == n) {
                return false;
            }
            waiting.remove(w.channel);
            w.request = request(w.line.toString(StandardCharsets.UTF_8));
            return true;
        }
        catch (IOException e) {
            log.debug("serve: client went away: {}", e.getMessage());
            waiting.remove(w.channel);
            closeQuietly(w.channel);
            return false;
        }
        catch (RuntimeException e) {
            refuse(w, "not a request: " + e.getMessage());
            return false;
        }
    }

    private static Map<?, ?> request(String line) {
        if (Json.parse(line) instanceof Map<?, ?> m) {
            return m;
        }
        throw new IllegalArgumentException("a request is a JSON object");
    }

    /** Closes the connections that have not sent their request in time. */
    private void closeTimedOut() {
        long now = System.nanoTime();
        List<Waiting> late = new ArrayList<>();
        for (Waiting w : waiting.values()) {
            if (w.deadline - now > 0) {
                break; // in the order they came, so by deadline
            }
            late.add(w);
        }
        if (!late.isEmpty()) {
            log.warn("serve socket: closing {} connection(s) that sent no request within {} s", late.size(),
                    requestTimeout.toSeconds());
        }
        late.forEach(w -> refuse(w, "no request within " + requestTimeout.toMillis() + " ms"));
    }

    /**
     * Answers {@code error} and closes the connection; the answer is written only as far
     * as the connection takes it without waiting.
     */
    private void refuse(Waiting w, String error) {
        waiting.remove(w.channel);
        try {
            Map<String, Object> last = new LinkedHashMap<>();
            last.put("error", error);
            last.put("exit", 1);
            w.channel.write(ByteBuffer.wrap((Json.write(last) + "\n").getBytes(StandardCharsets.UTF_8)));
        }
        catch (IOException e) {
            // it does not listen either
        }
        closeQuietly(w.channel);
    }

    private void dispatch(Waiting w) {
        try {
            w.channel.configureBlocking(true);
            (CONTEXT_OPS.contains(String.valueOf(w.request.get("op"))) ? contextWorkers : commandWorkers)
                .submit(() -> answer(w.channel, w.request, handler));
        }
        catch (IOException | RuntimeException e) {
            log.warn("serve: cannot answer a request: {}", e.toString());
            closeQuietly(w.channel);
        }
    }

    private static void answer(SocketChannel client, Map<?, ?> request, Handler handler) {
        try (client) {
            Reply reply = new Reply(client);
            try {
                handler.handle(request, reply);
            }
            catch (Exception e) {
                log.warn("serve: request {} failed: {}", request.get("op"), e.toString());
                reply.err("code-memory serve: " + e.getMessage() + "\n");
                reply.finish(1, Map.of());
            }
        }
        catch (IOException e) {
            log.debug("serve: client went away: {}", e.getMessage());
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        }
        catch (IOException e) {
            // closed either way
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        }
        catch (IOException e) {
            log.debug("closing the serve socket: {}", e.getMessage());
        }
        selector.wakeup();
        try {
            acceptor.join(5_000);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
        }
        catch (IOException e) {
            log.debug("closing the serve selector: {}", e.getMessage());
        }
        contextWorkers.shutdown();
        commandWorkers.shutdown();
        try {
            Files.deleteIfExists(socket);
        }
        catch (IOException e) {
            log.warn("cannot remove {}: {}", socket, e.getMessage());
        }
    }

    /** A connection still sending its request line. */
    private static final class Waiting {

        private final SocketChannel channel;

        /** {@link System#nanoTime()} by which the line must be complete. */
        private final long deadline;

        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        private Map<?, ?> request;

        private Waiting(SocketChannel channel, long deadline) {
            this.channel = channel;
            this.deadline = deadline;
        }

    }

    /** Writes the answer's lines: output as it is printed, then the final line. */
    public static final class Reply {

        private final SocketChannel channel;

        Reply(SocketChannel channel) {
            this.channel = channel;
        }

        public synchronized void out(String text) throws IOException {
            line(Map.of("out", text));
        }

        public synchronized void err(String text) throws IOException {
            line(Map.of("err", text));
        }

        /** The final line: the exit code and any other fields. */
        public synchronized void finish(int exit, Map<String, ?> fields) throws IOException {
            Map<String, Object> last = new LinkedHashMap<>(fields);
            last.put("exit", exit);
            line(last);
        }

        /**
         * A stream whose text goes out as {@code out} (or {@code err}) lines as it is
         * flushed or ends a line.
         */
        public PrintStream stream(boolean error) {
            OutputStream sink = new OutputStream() {
                private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

                @Override
                public void write(int b) throws IOException {
                    pending.write(b);
                    if (b == '\n') {
                        flush();
                    }
                }

                @Override
                public void flush() throws IOException {
                    if (pending.size() > 0) {
                        String text = pending.toString(StandardCharsets.UTF_8);
                        pending.reset();
                        if (error) {
                            err(text);
                        }
                        else {
                            out(text);
                        }
                    }
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            };
            return new PrintStream(sink, true, StandardCharsets.UTF_8);
        }

        private void line(Map<String, ?> fields) throws IOException {
            ByteBuffer bytes = ByteBuffer.wrap((Json.write(fields) + "\n").getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        }

    }

}
