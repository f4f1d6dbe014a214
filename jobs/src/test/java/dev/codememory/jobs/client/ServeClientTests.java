package dev.codememory.jobs.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.serve.ServeServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The socket protocol between the hook or a command and serve, against a real
 * {@link ServeServer}.
 */
class ServeClientTests {

    @TempDir
    Path dir;

    private Path socket() {
        return dir.resolve(ServeClient.SOCKET);
    }

    @Test
    void answersTheHookWithStdoutAndLogLines() throws Exception {
        try (ServeServer server = ServeServer.start(socket(),
                (request, reply) -> reply.finish(0, Map.of("stdout", "context for " + request.get("line"), "info",
                        List.of("answered source=serve vectors=true"), "errors", List.of())))) {
            Optional<ServeClient.HookAnswer> answer = new ServeClient(socket()).hook("{\"x\":1}", Instant.now(),
                    Instant.now().plusSeconds(5));

            assertThat(answer).isPresent();
            assertThat(answer.get().stdout()).isEqualTo("context for {\"x\":1}");
            assertThat(answer.get().info()).containsExactly("answered source=serve vectors=true");
            assertThat(answer.get().errors()).isEmpty();
            assertThat(Files.getPosixFilePermissions(socket())).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        }
        assertThat(socket()).doesNotExist();
    }

    @Test
    void streamsACommandsOutputAndExitCode() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), (request, reply) -> {
            reply.out("args " + request.get("args") + "\n");
            reply.err("warning\n");
            reply.out("cwd " + request.get("cwd") + "\n");
            reply.finish(3, Map.of());
        })) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();

            OptionalInt exit = new ServeClient(socket()).command(new String[] { "query", "ünïcode" }, dir,
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));

            assertThat(exit).hasValue(3);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("args [query, ünïcode]\ncwd " + dir + "\n");
            assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("warning\n");
        }
    }

    @Test
    void noSocketFileMeansNoServe() {
        ServeClient client = new ServeClient(socket());

        assertThat(client.hook("{}", Instant.now(), Instant.now().plusSeconds(5))).isEmpty();
        assertThat(client.command(new String[] { "tasks" }, dir, System.out, System.err)).isEmpty();
        assertThat(client.running()).isFalse();
    }

    @Test
    void aSocketLeftByADeadProcessMeansNoServe() throws Exception {
        ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        dead.bind(UnixDomainSocketAddress.of(socket()));
        dead.close(); // the file stays, nobody listens: what kill -9 leaves
        assertThat(socket()).exists();
        ServeClient client = new ServeClient(socket());

        long start = System.nanoTime();
        assertThat(client.hook("{}", Instant.now(), Instant.now().plusSeconds(5))).isEmpty();
        assertThat(client.command(new String[] { "tasks" }, dir, System.out, System.err)).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));

        try (ServeServer server = ServeServer.start(socket(), (request, reply) -> reply.finish(0, Map.of()))) {
            assertThat(client.running()).as("a new serve replaces the stale file").isTrue();
        }
    }

    @Test
    void givesUpAtTheDeadlineWhenServeIsBusy() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (ServeServer server = ServeServer.start(socket(), (request, reply) -> {
            release.await();
            reply.finish(0, Map.of("stdout", "late"));
        })) {
            Instant deadline = Instant.now().plusMillis(300);

            Optional<ServeClient.HookAnswer> answer = new ServeClient(socket()).hook("{}", Instant.now(), deadline);

            assertThat(answer).isEmpty();
            assertThat(Instant.now()).isBefore(deadline.plusSeconds(2));
            release.countDown();
        }
    }

    @Test
    void aConnectionDroppedMidAnswerIsNoAnswer() throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket()));
        Thread dying = new Thread(() -> {
            for (int i = 0; i < 2; i++) {
                try (var client = server.accept()) {
                    client.read(java.nio.ByteBuffer.allocate(4096));
                    client.write(java.nio.ByteBuffer
                        .wrap("{\"out\":\"partial\\n\"}\n{\"stdout\":\"cut".getBytes(StandardCharsets.UTF_8)));
                }
                catch (java.io.IOException e) {
                    return;
                }
            }
        });
        dying.start();
        try {
            assertNoHookAnswerAndACommandThatFails("serve stopped before it finished answering");
        }
        finally {
            dying.join(5_000);
            server.close();
        }
    }

    @Test
    void aFailedRequestIsNoAnswerForTheHookAndExitOneForACommand() throws Exception {
        try (ServeServer server = ServeServer.start(socket(), (request, reply) -> {
            reply.out("partial\n");
            throw new IllegalStateException("died");
        })) {
            assertNoHookAnswerAndACommandThatFails("died");
        }
    }

    /**
     * A hook asking the server now gets no answer, and a command gets what was written
     * before the failure, exit 1 and the reason on stderr.
     */
    private void assertNoHookAnswerAndACommandThatFails(String reason) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        assertThat(new ServeClient(socket()).hook("{}", Instant.now(), Instant.now().plusSeconds(5))).isEmpty();
        OptionalInt exit = new ServeClient(socket()).command(new String[] { "tasks" }, dir,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(exit).hasValue(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("partial\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains(reason);
    }

    @Test
    void readsTheJobNameOfAJobCommandLine() {
        assertThat(ServeClient.jobName(new String[] { "--job=graduate" })).contains("graduate");
        assertThat(ServeClient.jobName(new String[] { "--job=ingest", "run.id=3" })).contains("ingest");
        assertThat(ServeClient.jobName(new String[] { "--job=" })).isEmpty();
        assertThat(ServeClient.jobName(new String[] { "serve" })).isEmpty();
        assertThat(ServeClient.jobName(new String[] {})).isEmpty();
    }

}
