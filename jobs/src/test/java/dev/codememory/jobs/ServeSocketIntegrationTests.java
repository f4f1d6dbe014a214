package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.client.ServeClient;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} as the resident process of a graduated home, with the real jar, model,
 * DuckDB and Quartz: the hook asks it first (and loads nothing but the JDK to do so), the
 * read commands and {@code --job} go through it while it holds the database, a second
 * serve refuses, and after a kill -9 the hook answers on its own and a new serve replaces
 * the stale socket.
 */
class ServeSocketIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    @TempDir
    Path tmp;

    @Test
    void servesTheHookAndTheCommandsFromOneWarmProcess() throws Exception {
        Path home = graduatedHome();
        Path log = tmp.resolve("serve.log");
        Process serve = JobsJar.start(home, log, "serve");
        Process second = null;
        try {
            JobsJar.awaitWarm(home, serve, log);

            // the hook: answered by serve with the prompt's vector, on the JDK alone,
            // while clients that never finish their request hold connections open
            List<SocketChannel> halfSent = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                channel.connect(UnixDomainSocketAddress.of(home.resolve(ServeClient.SOCKET)));
                channel.write(ByteBuffer.wrap("{\"op\":\"hook\",\"line\":\"".getBytes(StandardCharsets.UTF_8)));
                halfSent.add(channel);
            }
            Path classes = tmp.resolve("hook-classes.txt");
            List<String> hook = new ArrayList<>(JobsJar.hookCommand());
            hook.add(hook.indexOf("-jar"), "-Xlog:class+load=info:file=" + classes); // after
                                                                                     // -Xlog:disable
            JobsJar.Result answered = JobsJar.run(home, utf8(prompt("why did the checkout tests fail on CI?")), hook);
            assertThat(answered.exit()).isZero();
            assertThat(answered.stdout()).startsWith("{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\"")
                .contains("[mem:");
            assertThat(lastLine(home.resolve("logs/hook.log"))).contains("UserPromptSubmit context:")
                .contains(" source=serve vectors=true ");
            for (SocketChannel channel : halfSent) {
                channel.close();
            }
            String loaded = Files.readString(classes);
            assertThat(loaded).contains("dev.codememory.jobs.client.ServeClient");
            for (String foreign : List.of("org.springframework.", "org.duckdb.", "ai.djl.", "tools.jackson.",
                    "com.fasterxml.", "org.apache.lucene.", "org.yaml.", "ch.qos.logback.")) {
                assertThat(loaded).as("the hook loaded no %s class", foreign).doesNotContain(" " + foreign);
            }

            // the read commands run in serve, which holds the database (run here they
            // would find it locked)
            JobsJar.Result query = JobsJar.run(home, new byte[0], "query", "--project",
                    tmp.resolve("shop-api").toString(), "checkout", "tests");
            assertThat(query.exit()).as(query.stderr()).isZero();
            Matcher citation = Pattern.compile("\\[(mem:[A-Za-z0-9_-]{6})\\]").matcher(query.stdout());
            assertThat(citation.find()).as(query.stdout()).isTrue();
            JobsJar.Result show = JobsJar.run(home, new byte[0], "show", citation.group(1));
            assertThat(show.exit()).as(show.stderr()).isZero();
            assertThat(show.stdout()).startsWith("[" + citation.group(1) + "]");
            JobsJar.Result tasks = JobsJar.run(home, new byte[0], "tasks");
            assertThat(tasks.exit()).isZero();
            assertThat(tasks.stdout()).contains("publish the 2.4 release to Maven Central");

            // a job asked for from the command line runs in serve, which prints its steps
            // and result
            JobsJar.Result job = JobsJar.run(home, new byte[0], "--job=ingest");
            assertThat(job.exit()).as(job.stderr()).isZero();
            assertThat(job.stdout()).contains("running in code-memory serve")
                .contains("ingest spool")
                .contains("ingest completed in");

            // a graduation run through serve refreshes its indexes: the new memory is
            // found by the next query
            String session = "{\"session_id\":\"serve-new\",\"cwd\":\"" + tmp.resolve("shop-api") + "\",";
            Files.writeString(tmp.resolve("more.jsonl"), session + "\"hook_event_name\":\"UserPromptSubmit\","
                    + "\"prompt\":\"We decided to use Zeppelin notebooks for the quarterly revenue reports.\","
                    + "\"timestamp\":\"2026-11-03T10:00:00Z\"}\n" + session + "\"hook_event_name\":\"Stop\","
                    + "\"last_assistant_message\":\"Noted: Zeppelin notebooks for the quarterly revenue reports.\","
                    + "\"timestamp\":\"2026-11-03T10:00:30Z\"}\n");
            assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("more.jsonl").toString()).exit())
                .isZero();
            JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
            assertThat(graduated.exit()).as(graduated.stderr()).isZero();
            assertThat(graduated.stdout()).contains("embed memories").contains("graduate completed in");
            JobsJar.Result found = JobsJar.run(home, new byte[0], "query", "--project",
                    tmp.resolve("shop-api").toString(), "Zeppelin notebooks");
            assertThat(found.exit()).isZero();
            assertThat(found.stdout().lines().skip(1).findFirst().orElse("")).contains("Zeppelin notebooks");

            // one serve per home
            JobsJar.Result refused = JobsJar.run(home, new byte[0], "serve");
            assertThat(refused.exit()).isEqualTo(3);
            assertThat(refused.stderr()).contains("code-memory serve is already running for " + home)
                .contains("(process " + serve.pid() + ")");

            // killed -9: the socket file stays behind; the hook answers on its own
            serve.destroyForcibly();
            assertThat(serve.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(home.resolve(ServeClient.SOCKET)).exists();
            JobsJar.Result cold = JobsJar.run(home, utf8(prompt("why did the checkout tests fail on CI?")),
                    JobsJar.hookCommand());
            assertThat(cold.exit()).isZero();
            assertThat(lastLine(home.resolve("logs/hook.log"))).contains("source=cold");

            // and a new serve replaces the stale socket
            second = JobsJar.start(home, tmp.resolve("serve-2.log"), "serve");
            JobsJar.awaitWarm(home, second, tmp.resolve("serve-2.log"));
            assertThat(ServeClient.forHome(new CodeMemoryHome(home)).running()).isTrue();
        }
        finally {
            serve.destroy();
            if (second != null) {
                second.destroy(); // SIGTERM: stops cleanly and takes its socket with it
                assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
                assertThat(home.resolve(ServeClient.SOCKET)).doesNotExist();
            }
        }
    }

    private Path graduatedHome() throws Exception {
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        String hooks = new String(getClass().getResourceAsStream("/fixtures/claude-code-session.jsonl").readAllBytes(),
                StandardCharsets.UTF_8)
            .replace(FIXTURE_DIR, tmp.toString());
        Files.writeString(tmp.resolve("hooks.jsonl"), hooks);
        Path home = tmp.resolve("home");
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("hooks.jsonl").toString()).exit())
            .isZero();
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stderr()).isZero();
        return home;
    }

    private String prompt(String text) {
        return "{\"session_id\":\"serve-it\",\"cwd\":\"" + tmp.resolve("shop-api")
                + "\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"" + text + "\"}";
    }

    private static String lastLine(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

}
