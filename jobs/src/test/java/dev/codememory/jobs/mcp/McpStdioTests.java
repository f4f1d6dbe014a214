package dev.codememory.jobs.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

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

    @Test
    void answersLinesThatAreNotJsonRpcWithErrorsAndGoesOn() {
        String longNumber = "1".repeat(1_100);
        List<Map<?, ?>> answers = exchange(sdkEngine(), INITIALIZE.formatted("2025-06-18"), INITIALIZED, "{not json",
                "{}", "[{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"ping\"}]",
                "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":5}",
                "{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":\"old\",\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"tools/call\",\"params\":\"mem-search\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":23}",
                call(24, "mem-search", "{\"query\":\"x\",\"limit\":" + longNumber + "}"),
                call(3, "mem-search", "{\"query\":\"\"}"), "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");

        assertThat(answers.subList(0, 10)).extracting(McpStdioTests::id, McpStdioTests::errorCode)
            .containsExactly(tuple("1", null), tuple("null", "-32700"), tuple("null", "-32600"),
                    tuple("null", "-32600"), tuple("21", "-32600"), tuple("null", "-32600"), tuple("old", "-32600"),
                    tuple("22", "-32600"), tuple("23", "-32600"), tuple("24", "-32600"));
        assertThat(answers.subList(10, answers.size())).extracting(McpStdioTests::id, McpStdioTests::errorCode)
            .containsExactlyInAnyOrder(tuple("3", null), tuple("4", null), tuple("5", null));
        assertThat(errorMessage(answers.get(1))).startsWith("Parse error: ");
        assertThat(errorMessage(answers.get(2))).isEqualTo("Invalid Request: jsonrpc must be \"2.0\"");
        assertThat(errorMessage(answers.get(3))).isEqualTo("Invalid Request: a message is a JSON object");
        assertThat(errorMessage(answers.get(4))).isEqualTo("Invalid Request: method must be a string");
        assertThat(errorMessage(answers.get(5))).isEqualTo("Invalid Request: id must be a string or a number");
        assertThat(errorMessage(answers.get(7))).isEqualTo("Invalid Request: params must be an object or an array");
        assertThat(errorMessage(answers.get(8)))
            .isEqualTo("Invalid Request: a message without a method is a response, with either a result or an error");
        assertThat(errorMessage(answers.get(9))).isEqualTo("Invalid Request: the MCP server cannot read this message");
        assertThat(text(answers, "3")).isEqualTo("query is empty: say what to look for");
        assertThat(answers).filteredOn(a -> id(a).equals("4"))
            .singleElement()
            .extracting(a -> ((List<?>) ((Map<?, ?>) a.get("result")).get("tools")).size())
            .isEqualTo(ToolCatalog.TOOLS.size());
    }

    @Test
    void answersAMalformedLineBeforeInitializeAndStillInitializes() {
        List<Map<?, ?>> answers = exchange(sdkEngine(), "{not json", INITIALIZE.formatted("2025-06-18"), INITIALIZED,
                call(2, "mem-search", "{\"query\":\"\"}"));

        assertThat(answers).extracting(McpStdioTests::id, McpStdioTests::errorCode)
            .containsExactly(tuple("null", "-32700"), tuple("1", null), tuple("2", null));
        assertThat(text(answers, "2")).isEqualTo("query is empty: say what to look for");
    }

    /** The SDK server on the test's home, reading what the real command reads. */
    private McpStdio.Engine sdkEngine() {
        return new McpStdio.Engine() {

            @Override
            public AutoCloseable start(java.io.InputStream in, java.io.OutputStream out) {
                return engine(in, out);
            }

            @Override
            public boolean reads(String line) {
                return McpCommand.reads(line);
            }

        };
    }

    static String errorCode(Map<?, ?> answer) {
        return answer.get("error") instanceof Map<?, ?> error && error.get("code") instanceof Json.JsonNumber code
                ? code.literal() : null;
    }

    static String errorMessage(Map<?, ?> answer) {
        return String.valueOf(((Map<?, ?>) answer.get("error")).get("message"));
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

    /**
     * Runs McpStdio over these lines to the end of its input, which it must reach within
     * a minute; its answers.
     */
    static List<Map<?, ?>> exchange(McpStdio.Engine engine, String... lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        McpStdio stdio = new McpStdio(
                new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8)), out,
                engine);
        int exit = assertTimeoutPreemptively(Duration.ofMinutes(1), stdio::serve,
                "every request answered and the input's end reached");
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
