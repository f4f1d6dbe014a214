package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.mcp.McpCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One {@code mcp} session over stdio on a graduated home (the demo's) while {@code serve}
 * comes and goes: the calls before serve runs are answered cold; serve then starts while
 * the client stays connected (it could not if the session held the database), and the
 * same calls answered through it give the same answers; a {@code mem-save} through serve
 * is graduated by serve soon after and found by the next {@code mem-search}; with serve
 * stopped the calls are cold again.
 */
class McpServeIntegrationTests {

    static final String PROJECT = "/home/demo/shop-api";

    @TempDir
    Path tmp;

    @Test
    void callsGoThroughServeOnceItRunsWithTheSameAnswers() throws Exception {
        Path home = tmp.resolve("home");
        JobsJar.Result demo = JobsJar.run(tmp.resolve("unused"), new byte[0], "demo", "--home=" + home);
        assertThat(demo.exit()).as(demo.stderr()).isZero();
        // the demo's last prompt is still in the spool: graduate it, so that serve finds
        // nothing to do at start (it catches up a missed night)
        JobsJar.Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
        List<Map<String, Object>> calls = List.of(
                call("mem-search", Map.of("query", "invoices PostgreSQL", "project", PROJECT)),
                call("mem-search", Map.of("query", "publish the release", "project", PROJECT, "status", "superseded")),
                call("mem-details", Map.of("citations", List.of("mem:u4WCQ_"))),
                call("mem-timeline", Map.of("citation", "mem:u4WCQ_")), call("mem-tasks", Map.of("project", PROJECT)));

        String found;
        try (StdioSession mcp = StdioSession.start(home, tmp)) {
            List<String> cold = new ArrayList<>();
            for (Map<String, Object> c : calls) {
                cold.add(mcp.text(c));
            }
            assertThat(mcp.text(call("mem-stats", Map.of()))).contains("serve: not running");

            Path log = tmp.resolve("serve.log");
            Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.ingest-every=1h",
                    "--code-memory.schedule.idle-after=24h", "--code-memory.schedule.after-save=2s");
            try {
                JobsJar.awaitWarm(home, serve, log);
                List<String> served = new ArrayList<>();
                for (Map<String, Object> c : calls) {
                    served.add(mcp.text(c));
                }
                assertThat(mcp.text(call("mem-stats", Map.of()))).contains("serve: running (answered this call)");

                assertThat(citations(served.get(0))).isEqualTo(citations(cold.get(0))).startsWith("mem:u4WCQ_");
                assertThat(served.subList(1, calls.size())).isEqualTo(cold.subList(1, calls.size()));
                assertThat(served.get(1)).contains("1 superseded memory", "task", "superseded by [mem:",
                        "Publish the 2.4 release to Maven Central");

                String saved = mcp.text(call("mem-save",
                        Map.of("text", "We deploy the billing service from the release branch, never from main.",
                                "project", PROJECT)));
                assertThat(saved).contains("saved for project " + PROJECT, "serve graduates it in about 2 seconds");
                found = "";
                long deadline = System.currentTimeMillis() + 180_000;
                while (!found.contains("We deploy the billing service") && System.currentTimeMillis() < deadline) {
                    Thread.sleep(2_000);
                    found = mcp.text(call("mem-search",
                            Map.of("query", "which branch do we deploy billing from", "project", PROJECT, "limit", 3)));
                }
                assertThat(found)
                    .as("the saved memory, searchable after serve's graduation; serve's log:\n%s",
                            Files.readString(log))
                    .containsPattern("\\[mem:[\\w-]{6}\\] preference \\d{4}-\\d\\d-\\d\\d score [\\d.]+ \\w+ — "
                            + "We deploy the billing service from the release branch");
            }
            finally {
                serve.destroy();
                assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(mcp.text(call("mem-stats", Map.of()))).contains("serve: not running");
            assertThat(citations(mcp.text(call("mem-search",
                    Map.of("query", "which branch do we deploy billing from", "project", PROJECT, "limit", 3)))))
                .isEqualTo(citations(found));
        }
    }

    static Map<String, Object> call(String name, Map<String, Object> arguments) {
        return Map.of("name", name, "arguments", arguments);
    }

    static List<String> citations(String searchAnswer) {
        Matcher m = Pattern.compile("^\\[(mem:[\\w-]{6})\\]", Pattern.MULTILINE).matcher(searchAnswer);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * {@code jobs.jar mcp} as {@code install} registers it, spoken to over stdio: one
     * request at a time, its answer awaited.
     */
    static final class StdioSession implements AutoCloseable {

        private final Process process;

        private final OutputStream in;

        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        private int ids;

        private StdioSession(Process process) {
            this.process = process;
            this.in = process.getOutputStream();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        lines.add(line);
                    }
                }
                catch (IOException e) {
                    // the process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        static StdioSession start(Path home, Path dir) throws Exception {
            List<String> command = new ArrayList<>(List.of(JobsJar.java()));
            command.addAll(McpCommand.serverArguments(JobsJar.JAR));
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectError(dir.resolve("mcp.err").toFile());
            pb.environment().put("CODE_MEMORY_HOME", home.toString());
            StdioSession session = new StdioSession(pb.start());
            Map<?, ?> init = session.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities",
                    Map.of(), "clientInfo", Map.of("name", "test", "version", "1")));
            assertThat(((Map<?, ?>) init.get("result")).get("serverInfo"))
                .isEqualTo(Map.of("name", "code-memory", "version", "0.1.0"));
            session.send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
            return session;
        }

        /** A tool call's text; fails on an RPC error or a tool error. */
        String text(Map<String, Object> call) throws Exception {
            Map<?, ?> answer = request("tools/call", call);
            assertThat(answer.containsKey("result")).as("%s: %s", call, answer).isTrue();
            Map<?, ?> result = (Map<?, ?>) answer.get("result");
            String text = String.valueOf(((Map<?, ?>) ((List<?>) result.get("content")).get(0)).get("text"));
            assertThat(result.get("isError")).as("%s: %s", call, text).isEqualTo(false);
            return text;
        }

        Map<?, ?> request(String method, Map<String, Object> params) throws Exception {
            int id = ++ids;
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("jsonrpc", "2.0");
            message.put("id", id);
            message.put("method", method);
            message.put("params", params);
            send(message);
            long deadline = System.currentTimeMillis() + 180_000;
            while (System.currentTimeMillis() < deadline) {
                String line = lines.poll(1, TimeUnit.SECONDS);
                if (line == null) {
                    assertThat(process.isAlive()).as("mcp is running").isTrue();
                    continue;
                }
                Map<?, ?> answer = (Map<?, ?>) Json.parse(line);
                if (String.valueOf(id)
                    .equals(String
                        .valueOf(answer.get("id") instanceof Json.JsonNumber n ? n.literal() : answer.get("id")))) {
                    return answer;
                }
            }
            throw new AssertionError("no answer to " + method + " in 180 s");
        }

        private void send(Map<String, Object> message) throws IOException {
            in.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        @Override
        public void close() throws Exception {
            in.close();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("mcp ends with its stdin").isTrue();
            assertThat(process.exitValue()).isZero();
        }

    }

}
