package dev.codememory.jobs.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.client.ServeClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * serve's socket against clients that do not finish their request or keep it busy, on
 * real Unix domain sockets: the hook's request is answered within its budget all the
 * same, and a connection that never sends its line is answered with an error and closed.
 */
class ServeServerTests {

    /** The hook's default budget less its cold reserve, as {@code HookCommand} asks. */
    private static final Duration HOOK_BUDGET = Duration.ofMillis(2_000);

    @TempDir
    Path dir;

    private final List<SocketChannel> clients = new ArrayList<>();

    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void closeClients() throws IOException {
        release.countDown();
        for (SocketChannel c : clients) {
            c.close();
        }
    }

    private Path socket() {
        return dir.resolve(ServeClient.SOCKET);
    }

    /**
     * The hook's context and ping are answered at once; a command waits until the test
     * releases it (a long job).
     */
    private ServeServer.Handler handler() {
        return (request, reply) -> {
            if ("hook".equals(request.get("op"))) {
                reply.finish(0,
                        Map.of("stdout", "context for " + request.get("line"), "info", List.of(), "errors", List.of()));
                return;
            }
            if ("command".equals(request.get("op"))) {
                release.await();
            }
            reply.finish(0, Map.of());
        };
    }

    @Test
    void answersTheHookWhileHalfSentRequestsAndLongCommandsWait() throws Exception {
        ExecutorService commands = Executors.newCachedThreadPool(daemon());
        try (ServeServer server = ServeServer.start(socket(), handler())) {
            for (int i = 0; i < 8; i++) {
                halfSent("{\"op\":\"hook\",\"line\":\"");
            }
            for (int i = 0; i < 6; i++) {
                commands.submit(() -> new ServeClient(socket()).command(new String[] { "import" }, dir,
                        new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
            }
            Thread.sleep(200); // every one of them connected and sent what it sends

            Instant started = Instant.now();
            Optional<ServeClient.HookAnswer> answer = new ServeClient(socket()).hook("{\"prompt\":\"why?\"}", started,
                    started.plus(HOOK_BUDGET));

            assertThat(answer).as("answered within the hook's budget").isPresent();
            assertThat(answer.get().stdout()).isEqualTo("context for {\"prompt\":\"why?\"}");
        }
        finally {
            release.countDown();
            commands.shutdown();
        }
    }

    @Test
    void aConnectionThatNeverFinishesItsRequestIsAnsweredWithAnErrorAndClosed() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), handler(), Duration.ofMillis(300))) {
            SocketChannel slow = halfSent("{\"op\":\"command\",\"args\":[\"tas");

            Future<List<String>> lines = Executors.newSingleThreadExecutor(daemon()).submit(() -> readToEnd(slow));

            assertThat(lines.get(10, TimeUnit.SECONDS))
                .containsExactly("{\"error\":\"no request within 300 ms\",\"exit\":1}");
            assertThat(new ServeClient(socket()).running()).as("serve goes on").isTrue();
        }
    }

    @Test
    void pastTheLimitOfWaitingConnectionsTheOldestIsClosed() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), handler())) {
            SocketChannel oldest = halfSent("{\"op\":");
            Thread.sleep(100); // accepted before the others
            for (int i = 0; i < ServeServer.MAX_WAITING; i++) {
                halfSent("{\"op\":");
            }

            Future<List<String>> lines = Executors.newSingleThreadExecutor(daemon()).submit(() -> readToEnd(oldest));

            assertThat(lines.get(10, TimeUnit.SECONDS))
                .containsExactly("{\"error\":\"too many connections waiting to send their request\",\"exit\":1}");
            Optional<ServeClient.HookAnswer> answer = new ServeClient(socket()).hook("{}", Instant.now(),
                    Instant.now().plus(HOOK_BUDGET));
            assertThat(answer).isPresent();
            assertThat(answer.get().stdout()).isEqualTo("context for {}");
        }
    }

    @Test
    void aLineThatIsNotARequestIsAnsweredWithAnError() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), handler())) {
            SocketChannel bad = halfSent("[1,2]\n");
            SocketChannel broken = halfSent("{not json\n");

            assertThat(readToEnd(bad))
                .containsExactly("{\"error\":\"not a request: a request is a JSON object\",\"exit\":1}");
            assertThat(readToEnd(broken)).singleElement()
                .satisfies(line -> assertThat(((Map<?, ?>) Json.parse(line)).get("error").toString())
                    .startsWith("not a request: "));
            release.countDown();
            OptionalInt exit = new ServeClient(socket()).command(new String[] { "tasks" }, dir,
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
            assertThat(exit).hasValue(0);
        }
    }

    /**
     * A request longer than what one read takes, arriving in pieces: the line is put
     * together across reads and answered whole.
     */
    @Test
    void aRequestSentInPiecesLongerThanOneReadIsAnsweredWhole() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), handler())) {
            String prompt = "x".repeat(150 * 1024);
            String request = Json.write(Map.of("op", "hook", "line", prompt)) + "\n";
            SocketChannel client = halfSent(request.substring(0, 1000));
            Thread.sleep(50);
            client.write(ByteBuffer.wrap(request.substring(1000, 100_000).getBytes(StandardCharsets.UTF_8)));
            Thread.sleep(50);
            client.write(ByteBuffer.wrap(request.substring(100_000).getBytes(StandardCharsets.UTF_8)));

            List<String> answer = readToEnd(client);

            assertThat(answer).hasSize(1);
            assertThat(((Map<?, ?>) Json.parse(answer.get(0))).get("stdout")).isEqualTo("context for " + prompt);
        }
    }

    /** A connection that has sent {@code text} and sends no more. */
    private SocketChannel halfSent(String text) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        clients.add(channel);
        channel.connect(UnixDomainSocketAddress.of(socket()));
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        return channel;
    }

    private static List<String> readToEnd(SocketChannel channel) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        ByteBuffer in = ByteBuffer.allocate(4096);
        while (channel.read(in) >= 0) {
            all.write(in.array(), 0, in.position());
            in.clear();
        }
        return all.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static java.util.concurrent.ThreadFactory daemon() {
        return r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
    }

}
