package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp} driven by a client that is not ours: the official TypeScript SDK's
 * ({@code @modelcontextprotocol/sdk} from the npm registry, installed by {@code .ci/run}
 * into {@code .e2e/}), over stdio against the built jar on a graduated home (the demo's
 * sample sessions). It lists the tools and calls each one, with good and bad input.
 */
@SuppressWarnings("unchecked")
class McpIntegrationTests {

    static final String PROJECT = "/home/demo/shop-api";

    @TempDir
    static Path tmp;

    static Path home;

    @BeforeAll
    static void graduateTheSample() throws Exception {
        home = tmp.resolve("home");
        JobsJar.Result demo = JobsJar.run(tmp.resolve("unused"), new byte[0], "demo", "--home=" + home);
        assertThat(demo.exit()).as(demo.stderr()).isZero();
    }

    @Test
    void listsTheToolsAndAnswersEachWithCitations() throws Exception {
        Map<String, Object> session = client(
                List.of(call("mem-search", Map.of("query", "invoices PostgreSQL", "project", PROJECT)),
                        call("mem-search",
                                Map.of("query", "invoices", "all_projects", true, "kinds", List.of("decision"), "since",
                                        "2026-03-01", "until", "2026-03-02")),
                        call("mem-search", Map.of("query", "invoices", "all_projects", true, "until", "2026-03-01")),
                        call("mem-timeline", Map.of("query", "keep the invoices in PostgreSQL", "project", PROJECT)),
                        call("mem-tasks", Map.of("project", PROJECT)), call("mem-stats", Map.of()),
                        call("mem-save",
                                Map.of("text", "Remember that we deploy from the release branch", "project", PROJECT)),
                        call("mem-search", Map.of("query", "kubernetes", "project", PROJECT)),
                        call("mem-search", Map.of("query", "kubernetes", "project", PROJECT, "near_misses", true))));

        List<Map<String, Object>> tools = list(session.get("tools"));
        assertThat(tools).extracting(t -> t.get("name"))
            .containsExactly("mem-search", "mem-timeline", "mem-details", "mem-tasks", "mem-save", "mem-stats");
        assertThat(tools).allSatisfy(t -> {
            assertThat(String.valueOf(t.get("description"))).hasSizeGreaterThan(80);
            Map<String, Object> properties = (Map<String, Object>) ((Map<String, Object>) t.get("inputSchema"))
                .get("properties");
            properties.values()
                .forEach(p -> assertThat(((Map<String, Object>) p).get("description")).as("%s", t.get("name"))
                    .isNotNull());
        });
        assertThat((Map<String, Object>) ((Map<String, Object>) tools.get(0).get("inputSchema")).get("properties"))
            .containsKeys("query", "project", "kinds", "status", "since", "until", "limit", "near_misses");
        List<Map<String, Object>> results = list(session.get("results"));
        assertThat(results).allSatisfy(r -> assertThat(r.get("isError")).as("%s", r).isEqualTo(false));
        assertThat(text(results, 0)).contains("in project " + PROJECT, "[mem:u4WCQ_] decision 2026-03-02");
        assertThat(text(results, 1)).contains("1 memory", "[mem:u4WCQ_] decision").doesNotContain("exchange");
        assertThat(text(results, 2)).contains("0 memories");
        assertThat(text(results, 3)).contains("timeline of [mem:u4WCQ_]",
                "> 2026-03-02 09:01:24 user: Good. We decided to keep the invoices in PostgreSQL",
                "Bash output (not replayed)");
        assertThat(text(results, 4)).contains("[mem:", "Add tests for coupons on discounted items", "blocked by:");
        assertThat(text(results, 5)).contains("memories", "serve: not running");
        assertThat(text(results, 6)).contains("saved for project " + PROJECT, "next graduation");
        // a word no memory holds: nothing matches, and the near misses only when asked
        // for
        assertThat(text(results, 7)).contains("nothing matches (", "near misses: near_misses: true lists them")
            .doesNotContain("[mem:");
        assertThat(text(results, 8)).contains("nothing matches; near misses:", "[mem:");
        assertThat(Files.walk(home.resolve("spool")).filter(Files::isRegularFile).map(p -> {
            try {
                return Files.readString(p);
            }
            catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).filter(s -> s.contains("we deploy from the release branch")).count()).isEqualTo(1);
    }

    @Test
    void detailsGiveTheSameEvidenceAsShow() throws Exception {
        Map<String, Object> session = client(List.of(call("mem-details", Map.of("citations", List.of("mem:u4WCQ_"))),
                call("mem-details", Map.of("citations", "[mem:u4WCQ_]"))));
        JobsJar.Result show = JobsJar.run(home, new byte[0], "show", "mem:u4WCQ_");

        assertThat(show.exit()).as(show.stderr()).isZero();
        List<Map<String, Object>> results = list(session.get("results"));
        assertThat(text(results, 0)).startsWith(show.stdout().stripTrailing())
            .contains("supersedes: none", "superseded by: none");
        assertThat(text(results, 1)).isEqualTo(text(results, 0));
    }

    @Test
    void badInputIsAToolErrorAndTheServerGoesOn() throws Exception {
        Map<String, Object> session = client(List.of(call("mem-search", Map.of("query", "")),
                call("mem-search", Map.of("query", "x", "limit", 100000)),
                call("mem-search", Map.of("query", "x", "project", "/etc/../root")),
                call("mem-search", Map.of("query", "x", "since", "yesterday")),
                call("mem-details", Map.of("citations", "mem:zzzzzz")),
                call("mem-details", Map.of("citations", "../../etc/passwd")), call("mem-timeline", Map.of()),
                call("mem-save", Map.of("text", " ")), call("mem-search", Map.of("query", "x", "status", "deleted")),
                call("mem-search", Map.of("query", "invoices", "project", PROJECT))));

        List<Map<String, Object>> results = list(session.get("results"));
        assertThat(results).hasSize(10).allSatisfy(r -> assertThat(r).doesNotContainKey("rpcError"));
        for (int i = 0; i < 9; i++) {
            assertThat(results.get(i).get("isError")).as("%s", results.get(i)).isEqualTo(true);
        }
        assertThat(text(results, 0)).contains("query is empty");
        assertThat(text(results, 1)).contains("limit");
        assertThat(text(results, 2)).contains("no memories for project /root");
        assertThat(text(results, 3)).contains("since must be a date");
        assertThat(text(results, 4)).contains("unknown citation: mem:zzzzzz");
        assertThat(text(results, 5)).contains("not a citation");
        assertThat(text(results, 8)).contains("/status", "\"active\", \"superseded\"");
        assertThat(results.get(9).get("isError")).isEqualTo(false);
        assertThat(text(results, 9)).contains("[mem:u4WCQ_]");
    }

    @Test
    void aMissingOrLockedDatabaseIsAToolError() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty-home"));
        Map<String, Object> missing = client(empty, List.of(call("mem-search", Map.of("query", "invoices"))));
        assertThat(list(missing.get("results")).get(0)).containsEntry("isError", true);
        assertThat(text(list(missing.get("results")), 0)).contains("no memory yet");

        // a job holds the database: a write connection from another process
        Process holder = JobsJar.start(home, tmp.resolve("holder.log"), "--job=graduate");
        try {
            Map<String, Object> locked = client(List.of(call("mem-details", Map.of("citations", "mem:u4WCQ_"))));
            Map<String, Object> result = list(locked.get("results")).get(0);
            assertThat(result).doesNotContainKey("rpcError");
            if (Boolean.TRUE.equals(result.get("isError"))) {
                assertThat(String.valueOf(result.get("text"))).contains("busy");
            }
        }
        finally {
            holder.waitFor(5, TimeUnit.MINUTES);
        }
    }

    /**
     * The real command on its own stdin and stdout, as a careless client drives it: a
     * line that is not JSON and one that is not JSON-RPC get their errors, the call after
     * them its answer, and the process ends once its input does.
     */
    @Test
    void answersMalformedLinesWithErrorsGoesOnAndEndsWithItsInput() throws Exception {
        List<String> command = new ArrayList<>(List.of(JobsJar.java()));
        command.addAll(dev.codememory.jobs.mcp.McpCommand.serverArguments(JobsJar.JAR));
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile())
            .redirectError(tmp.resolve("malformed.err").toFile());
        pb.environment().put("CODE_MEMORY_HOME", home.toString());
        Process mcp = pb.start();
        try {
            BlockingQueue<String> answers = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(
                        new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
                    out.lines().forEach(answers::add);
                }
                catch (IOException e) {
                    // the process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
            Writer in = new OutputStreamWriter(mcp.getOutputStream(), StandardCharsets.UTF_8);
            for (String line : List
                .of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"careless\",\"version\":\"1\"}}}",
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "{not json", "{}",
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"mem-search\","
                                + "\"arguments\":{\"query\":\"invoices\",\"project\":\"" + PROJECT + "\"}}}")) {
                in.write(line + "\n");
            }
            in.flush();

            List<Map<String, Object>> received = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String line = answers.poll(2, TimeUnit.MINUTES);
                assertThat(line).as("answer %d of 4; so far %s", i + 1, received).isNotNull();
                received.add((Map<String, Object>) Json.parse(line));
            }
            assertThat(received).extracting(a -> String.valueOf(a.get("id")))
                .containsExactly("JsonNumber[literal=1]", "null", "null", "JsonNumber[literal=2]");
            assertThat(received.get(1).get("error")).asString().contains("-32700").contains("Parse error");
            assertThat(received.get(2).get("error")).asString().contains("-32600").contains("Invalid Request");
            Map<String, Object> result = (Map<String, Object>) received.get(3).get("result");
            assertThat(result.get("isError")).isEqualTo(false);
            assertThat(String.valueOf(result.get("content"))).contains("[mem:u4WCQ_]");

            in.close(); // the client goes away
            assertThat(mcp.waitFor(60, TimeUnit.SECONDS)).as("mcp ended with its input").isTrue();
            assertThat(mcp.exitValue()).isZero();
            assertThat(answers).isEmpty();
        }
        finally {
            mcp.destroyForcibly();
        }
    }

    static Map<String, Object> call(String name, Map<String, Object> arguments) {
        return Map.of("name", name, "arguments", arguments);
    }

    static String text(List<Map<String, Object>> results, int i) {
        return String.valueOf(results.get(i).get("text"));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object value) {
        return (List<Map<String, Object>>) value;
    }

    static Map<String, Object> client(List<Map<String, Object>> calls) throws Exception {
        return client(home, calls);
    }

    /**
     * Runs the TypeScript SDK client against {@code jobs.jar mcp} on
     * {@code codeMemoryHome}.
     */
    static Map<String, Object> client(Path codeMemoryHome, List<Map<String, Object>> calls) throws Exception {
        Path sdk = nodeModules();
        Path callsFile = Files.createTempFile(tmp, "calls", ".json");
        Files.writeString(callsFile, Json.write(calls));
        Path script = Path.of("src/test/resources/mcp/client.cjs").toAbsolutePath();
        List<String> command = new ArrayList<>(List.of("node", script.toString(), callsFile.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(dev.codememory.jobs.mcp.McpCommand.serverArguments(JobsJar.JAR));
        Path out = Files.createTempFile(tmp, "client", ".out");
        Path err = Files.createTempFile(tmp, "client", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
        pb.environment().put("NODE_PATH", sdk.toString());
        pb.environment().put("CODE_MEMORY_HOME", codeMemoryHome.toString());
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the client finished").isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        return (Map<String, Object>) Json.parse(stdout.strip());
    }

    /**
     * Where the SDK is installed: {@code CODE_MEMORY_MCP_NODE_MODULES}, else the
     * repository's {@code .e2e/node_modules} ({@code .ci/run} installs it there).
     */
    static Path nodeModules() {
        String configured = System.getenv("CODE_MEMORY_MCP_NODE_MODULES");
        Path modules = configured != null ? Path.of(configured)
                : JobsJar.JAR.getParent().getParent().getParent().resolve(".e2e/node_modules");
        assertThat(modules.resolve("@modelcontextprotocol/sdk/package.json"))
            .as("the MCP TypeScript SDK: npm install --prefix .e2e @modelcontextprotocol/sdk (see .ci/run)")
            .exists();
        return modules;
    }

}
