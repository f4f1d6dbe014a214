package dev.codememory.jobs.serve;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.serve.client.ServeClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serve}'s end of the socket ({@link ServeClient} describes the protocol): a Unix
 * domain socket in the home, owner-only, one request per connection, each answered on a
 * worker thread so a long job does not hold up a hook. The caller has made sure no other
 * serve runs on the home, so a socket file found at start is a stale one and is replaced.
 */
public final class ServeServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServeServer.class);

    private static final int WORKERS = 4;

    private static final int MAX_REQUEST_BYTES = 64 * 1024 * 1024;

    /** Answers one request; writes through {@link Reply}. */
    @FunctionalInterface
    public interface Handler {

        void handle(Map<?, ?> request, Reply reply) throws Exception;

    }

    private final Path socket;

    private final ServerSocketChannel server;

    private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, r -> {
        Thread t = new Thread(r, "code-memory-serve");
        t.setDaemon(true);
        return t;
    });

    private final Thread acceptor;

    private ServeServer(Path socket, ServerSocketChannel server, Handler handler) {
        this.socket = socket;
        this.server = server;
        this.acceptor = new Thread(() -> accept(handler), "code-memory-serve-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Binds the socket (replacing a stale file) and starts answering. */
    public static ServeServer start(Path socket, Handler handler) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        }
        catch (UnsupportedOperationException e) {
            // not POSIX: the home folder is the owner's alone
        }
        return new ServeServer(socket, server, handler);
    }

    public Path socket() {
        return socket;
    }

    private void accept(Handler handler) {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                workers.submit(() -> answer(client, handler));
            }
            catch (ClosedChannelException e) {
                return;
            }
            catch (IOException e) {
                log.warn("serve socket: {}", e.getMessage());
            }
        }
    }

    private static void answer(SocketChannel client, Handler handler) {
        try (client) {
            Reply reply = new Reply(client);
            Map<?, ?> request;
            try {
                request = readRequest(client);
            }
            catch (RuntimeException e) {
                reply.finish(1, Map.of("error", "not a request: " + e.getMessage()));
                return;
            }
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

    private static Map<?, ?> readRequest(SocketChannel client) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        while (true) {
            int n = client.read(in);
            if (n < 0) {
                throw new IllegalArgumentException("connection closed before a full line");
            }
            in.flip();
            while (in.hasRemaining()) {
                byte b = in.get();
                if (b == '\n') {
                    if (Json.parse(line.toString(StandardCharsets.UTF_8)) instanceof Map<?, ?> m) {
                        return m;
                    }
                    throw new IllegalArgumentException("a request is a JSON object");
                }
                line.write(b);
                if (line.size() > MAX_REQUEST_BYTES) {
                    throw new IllegalArgumentException("request over " + MAX_REQUEST_BYTES + " bytes");
                }
            }
            in.clear();
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
        workers.shutdown();
        try {
            Files.deleteIfExists(socket);
        }
        catch (IOException e) {
            log.warn("cannot remove {}: {}", socket, e.getMessage());
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
