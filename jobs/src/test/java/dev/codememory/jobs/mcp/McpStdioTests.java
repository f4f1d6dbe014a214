package dev.codememory.jobs.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpStdioTests {

    static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}""";

    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    @TempDir
    Path home;

    @Test
    void answersInitializeListAndPingWithoutTheEngine() {
        AtomicInteger started = new AtomicInteger();
        CountDownLatch never = new CountDownLatch(1);
        List<Map<?, ?>> answers = exchange((in, out) -> {
            started.incrementAndGet();
            never.await(); // an engine that never comes up
            return () -> {
            };
        }, INITIALIZE.formatted("2025-06-18"), INITIALIZED, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}");

        assertThat(answers).extracting(McpStdioTests::id).containsExactly("1", "2", "p");
        assertThat(answers.get(0).get("result"))
            .isEqualTo(Json.parse(Json.write(McpStdio.initializeResult("2025-06-18"))));
        assertThat((Map<?, ?>) answers.get(1).get("result")).extracting(r -> ((List<?>) r.get("tools")).size())
            .isEqualTo(ToolCatalog.TOOLS.size());
        assertThat(answers.get(2).get("result")).isEqualTo(Map.of());
    }

    @Test
    void itsAnswersAreTheSdks() {
        for (String version : List.of("2024-11-05", "2025-06-18", "2025-11-25", "1999-01-01")) {
            List<Map<?, ?>> sdk = sdk(INITIALIZE.formatted(version), INITIALIZED,
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            List<Map<?, ?>> ours = exchange(this::engine, INITIALIZE.formatted(version), INITIALIZED,
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");

            assertThat(ours).as(version).isEqualTo(sdk);
        }
    }

    @Test
    void forwardsCallsToTheEngineAndAnswersThemBeforeItEnds() {
        List<Map<?, ?>> answers = exchange(this::engine, INITIALIZE.formatted("2025-06-18"), INITIALIZED,
                call(3, "mem-search", "{\"query\":\"\"}"), "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}",
                call(5, "mem-details", "{\"citations\":\"mem:zzzzzz\"}"),
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/list\"}");

        assertThat(answers).extracting(McpStdioTests::id).containsExactlyInAnyOrder("1", "3", "4", "5", "6");
        assertThat(text(answers, "3")).isEqualTo("query is empty: say what to look for");
        assertThat(text(answers, "5")).startsWith("no memory yet");
        assertThat(answers).filteredOn(a -> id(a).equals("6"))
            .singleElement()
            .extracting(a -> ((Map<?, ?>) a.get("error")).get("message"))
            .isEqualTo("Method not found: resources/list");
    }

    private AutoCloseable engine(java.io.InputStream in, java.io.OutputStream out) {
        McpSyncServer server = McpCommand.server(in, new PrintStream(out, true, StandardCharsets.UTF_8),
                new McpCommand.Calls(new CodeMemoryHome(home)));
        return server::closeGracefully;
    }

    static String id(Map<?, ?> answer) {
        return answer.get("id") instanceof Json.JsonNumber n ? n.literal() : String.valueOf(answer.get("id"));
    }

    static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    static String text(List<Map<?, ?>> answers, String id) {
        Map<?, ?> answer = answers.stream().filter(a -> id(a).equals(id)).findFirst().orElseThrow();
        Map<?, ?> result = (Map<?, ?>) answer.get("result");
        return String.valueOf(((Map<?, ?>) ((List<?>) result.get("content")).get(0)).get("text"));
    }

    /** Runs McpStdio over these lines to the end of its input; its answers. */
    static List<Map<?, ?>> exchange(McpStdio.Engine engine, String... lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = new McpStdio(
                new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8)), out,
                engine)
            .serve();
        assertThat(exit).isZero();
        return parse(out);
    }

    /** The SDK server alone on these lines, answered one by one. */
    List<Map<?, ?>> sdk(String... lines) {
        McpStdio.Feed feed = new McpStdio.Feed();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        McpSyncServer server = McpCommand.server(feed, new PrintStream(out, true, StandardCharsets.UTF_8),
                new McpCommand.Calls(new CodeMemoryHome(home)));
        try {
            int requests = 0;
            for (String line : lines) {
                feed.put(line);
                if (line.contains("\"id\"")) {
                    requests++;
                    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
                    while (parse(out).size() < requests && Instant.now().isBefore(deadline)) {
                        sleep();
                    }
                }
            }
            return parse(out);
        }
        finally {
            feed.end();
            server.closeGracefully();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(10);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Map<?, ?>> parse(ByteArrayOutputStream out) {
        String text;
        synchronized (out) {
            text = out.toString(StandardCharsets.UTF_8);
        }
        List<Map<?, ?>> answers = new java.util.ArrayList<>();
        text.lines().filter(l -> l.endsWith("}")).forEach(l -> answers.add((Map<?, ?>) Json.parse(l)));
        return answers;
    }

}
