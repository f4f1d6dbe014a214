package dev.codememory.jobs.mcp;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.invocation.QueryLogging;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code mcp}: code-memory's tools ({@link ToolCatalog}) as an MCP server on stdio, on
 * the official MCP Java SDK, behind {@link McpStdio}, which answers {@code initialize}
 * and {@code tools/list} before the SDK has loaded. Standard output carries the protocol
 * and nothing else: anything printed through {@code System.out} goes to stderr, as do the
 * logs (WARN and above).
 *
 * <p>
 * Each call goes to {@code serve} when it answers on its socket (warm model and indexes,
 * the database it already holds), else runs here on the database opened read-only for
 * that call and closed before the answer. So the server holds nothing between calls:
 * serve may start or a job may run while a client stays connected, and the next call goes
 * where it can.
 */
@Command(name = "mcp", header = "code-memory's MCP server on stdio (mem-search, mem-details, …)",
        mixinStandardHelpOptions = true,
        description = {
                "Runs an MCP server on stdin/stdout for Claude Code or Claude Desktop, with the tools mem-search, "
                        + "mem-timeline, mem-details, mem-tasks, mem-save and mem-stats. `install` registers it for Claude "
                        + "Code, `install --desktop` for Claude Desktop.",
                "Logs go to stderr. Calls go through serve when it runs, else open the database read-only per call." })
public final class McpCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(McpCommand.class);

    /** How long a call waits for serve before doing the work itself. */
    static final Duration SERVE_PATIENCE = Duration.ofSeconds(60);

    @picocli.CommandLine.Option(names = "--train", hidden = true,
            description = "the build's training run of the class-data archive (mcp.jsa): initialize, list the "
                    + "tools and answer one bad call on in-memory streams, then exit")
    boolean train;

    /**
     * The JVM flags of the registered command: the class-data archive beside the jar
     * (trained by the build on {@code mcp --train}, which halves {@code initialize} on
     * two busy cores) and JVM logging off, so a stale archive cannot write to stdout.
     */
    public static List<String> serverArguments(java.nio.file.Path jar) {
        java.nio.file.Path archive = jar.resolveSibling("mcp.jsa");
        List<String> arguments = new java.util.ArrayList<>();
        if (java.nio.file.Files.exists(archive)) {
            arguments.add("-XX:SharedArchiveFile=" + archive);
        }
        arguments
            .addAll(List.of("-Xlog:disable", "-Xlog:all=error:stderr", "-XX:+UseG1GC", "-jar", jar.toString(), "mcp"));
        return arguments;
    }

    @Override
    public Integer call() {
        return train ? train() : McpStdio.run();
    }

    /**
     * The SDK server on these streams ({@link McpStdio} starts it after answering
     * {@code initialize}), logging WARN and above to stderr.
     */
    static AutoCloseable engine(InputStream in, OutputStream out) {
        QueryLogging.toStderr();
        McpSyncServer server = server(in, new PrintStream(out, true, StandardCharsets.UTF_8),
                new Calls(CodeMemoryHome.resolve()));
        return server::closeGracefully;
    }

    /**
     * Whether the SDK's stdio transport reads this line as a message: its session ends at
     * the first line it cannot read ({@link McpStdio} answers that line instead).
     */
    static boolean reads(String line) {
        try {
            McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(), line);
            return true;
        }
        catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Initializes, lists the tools and answers a call with bad input (no database is
     * touched), as a client would, through {@link McpStdio} on in-memory streams; exits 0
     * once all three answers are written.
     */
    private int train() {
        QueryLogging.off();
        String messages = """
                {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"train","version":"1"}}}
                {"jsonrpc":"2.0","method":"notifications/initialized"}
                {"jsonrpc":"2.0","id":2,"method":"tools/list"}
                {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mem-search","arguments":{"query":""}}}
                """;
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        new McpStdio(new ByteArrayInputStream(messages.getBytes(StandardCharsets.UTF_8)), answers, (in, out) -> {
            McpSyncServer server = server(in, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new Calls(CodeMemoryHome.resolve()));
            return server::closeGracefully;
        }).serve();
        long lines = answers.toString(StandardCharsets.UTF_8).lines().count();
        Runtime.getRuntime().halt(lines == 3 ? 0 : 1); // the transport's reader threads
                                                       // are not daemons
        return 1;
    }

    /** The server on these streams, its calls answered by {@code calls}. */
    static McpSyncServer server(InputStream in, PrintStream out, Calls calls) {
        StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(), in, out);
        List<SyncToolSpecification> tools = ToolCatalog.TOOLS.stream()
            .map(tool -> SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(tool.name(), tool.inputSchema())
                    .title(tool.title())
                    .description(tool.description())
                    .annotations(McpSchema.ToolAnnotations.builder()
                        .title(tool.title())
                        .readOnlyHint(tool.readOnly())
                        .destructiveHint(false)
                        .idempotentHint(tool.readOnly())
                        .openWorldHint(false)
                        .build())
                    .build())
                .callHandler((exchange, request) -> result(calls.call(tool.name(), request.arguments())))
                .build())
            .toList();
        return McpServer.sync(transport)
            .serverInfo(ToolCatalog.SERVER_NAME, ToolCatalog.SERVER_VERSION)
            .instructions(ToolCatalog.INSTRUCTIONS)
            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
            .tools(tools)
            .build();
    }

    private static McpSchema.CallToolResult result(MemoryTools.Answer answer) {
        return McpSchema.CallToolResult.builder()
            .content(List.of(new McpSchema.TextContent(answer.text())))
            .isError(answer.error())
            .build();
    }

    /** Where a call runs: in serve when it answers, else here. */
    static final class Calls {

        private final CodeMemoryHome home;

        Calls(CodeMemoryHome home) {
            this.home = home;
        }

        MemoryTools.Answer call(String tool, Map<String, Object> arguments) {
            long start = System.nanoTime();
            try {
                Map<String, Object> args = arguments == null ? Map.of() : arguments;
                Optional<MemoryTools.Answer> served = throughServe(tool, args);
                MemoryTools.Answer answer = served
                    .orElseGet(() -> new MemoryTools(Invocation.local(home), false).call(tool, args));
                log.debug("{} answered {} in {} ms", tool, served.isPresent() ? "by serve" : "here",
                        (System.nanoTime() - start) / 1_000_000);
                return answer;
            }
            catch (RuntimeException | Error e) {
                return new MemoryTools.Answer(tool + " failed: " + e, true);
            }
        }

        private Optional<MemoryTools.Answer> throughServe(String tool, Map<String, Object> arguments) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("op", "mcp");
            request.put("tool", tool);
            request.put("arguments", arguments);
            request.put("cwd", java.nio.file.Path.of("").toAbsolutePath().toString());
            request.put("zone", java.time.ZoneId.systemDefault().getId());
            return ServeClient.forHome(home)
                .call(request, Instant.now().plus(SERVE_PATIENCE))
                .filter(answer -> answer.get("text") instanceof String)
                .map(MemoryTools.Answer::fromJson);
        }

    }

}
