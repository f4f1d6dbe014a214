package dev.codememory.jobs.serve;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.CommandTree;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.mcp.MemoryTools;
import dev.codememory.jobs.runtime.JobCommandRunner;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.retrieval.context.HookContext;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.context.ApplicationContext;

/**
 * What {@code serve} answers on its socket: the hook's context (with the warm model and
 * indexes), every command that opens the database ({@link ServeClient#COMMANDS}: the read
 * commands on its own database session, {@code forget} and {@code import} with its jobs'
 * wiring), and {@code --job=NAME}, run here with its progress streamed back. The commands
 * are the same code as when they run in their own process ({@link ServedInvocation} is
 * where the session, the query services and the jobs come from).
 */
public class ServeRequests implements ServeServer.Handler {

    private static final Set<String> COMMANDS = ServeClient.COMMANDS;

    private final CodeMemoryHome home;

    private final ResidentQueries resident;

    private final JobCommandRunner jobs;

    private final JobRunner jobRunner;

    private final ApplicationContext context;

    private volatile java.util.function.Supplier<String> viewerSignIn;

    private final SaveGraduation saves;

    private final CommandTree commands;

    public ServeRequests(CodeMemoryHome home, ResidentQueries resident, JobCommandRunner jobs, JobRunner jobRunner,
            ApplicationContext context, SaveGraduation saves, CommandTree commands) {
        this.home = home;
        this.resident = resident;
        this.jobs = jobs;
        this.jobRunner = jobRunner;
        this.context = context;
        this.saves = saves;
        this.commands = commands;
    }

    @Override
    public void handle(Map<?, ?> request, ServeServer.Reply reply) throws Exception {
        String op = String.valueOf(request.get("op"));
        try {
            answer(op, request, reply);
        }
        finally {
            if (!"ping".equals(op)) {
                resident.answered();
            }
        }
    }

    private void answer(String op, Map<?, ?> request, ServeServer.Reply reply) throws Exception {
        switch (op) {
            case "ping" -> reply.finish(0, Map.of("warm", resident.warm(), "rss_kb", rssKb()));
            case "hook" -> hook(request, reply);
            case "command" -> command(request, reply);
            case "mcp" -> mcp(request, reply);
            case "job" -> job(String.valueOf(request.get("name")), reply);
            case "viewer" -> viewer(reply);
            default -> {
                reply.err("code-memory serve: unknown request '" + op + "'\n");
                reply.finish(ExitCode.USAGE, Map.of());
            }
        }
    }

    private void hook(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        Instant started = Instant.ofEpochMilli(number(request.get("started")));
        Instant deadline = Instant.ofEpochMilli(number(request.get("deadline")));
        // when the request arrived, from the hook's start: the client's share of the time
        long received = Duration.between(started, Instant.now()).toMillis();
        List<String> info = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        String stdout = HookContext.respond(
                home, String.valueOf(request.get("line")), started, Duration.between(started, deadline), (where,
                        e) -> errors.add(where + " " + e.getClass().getName() + ": "
                                + String.valueOf(e.getMessage()).replace('\n', ' ')),
                info::add, resident.hookServices());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("stdout", stdout);
        answer.put("info", info.stream().map(line -> line + " received=" + received).toList());
        answer.put("errors", errors);
        reply.finish(0, answer);
    }

    /**
     * Where the web viewer answers, once it does: {@code signIn} gives a fresh one-time
     * sign-in address for each {@code viewer} request.
     */
    public void viewer(java.util.function.Supplier<String> signIn) {
        this.viewerSignIn = signIn;
    }

    /**
     * Where the viewer's use cases run: serve's home, database session and jobs, the home
     * as the working directory.
     */
    public Invocation invocation() {
        return new ServedInvocation(home.root(), ZoneId.systemDefault(), false, home, resident, context, jobRunner);
    }

    private void viewer(ServeServer.Reply reply) throws IOException {
        java.util.function.Supplier<String> signIn = viewerSignIn;
        if (signIn == null) {
            reply.err("code-memory serve runs without its viewer (code-memory.viewer.enabled=false, or its port was "
                    + "taken: see logs/jobs.log)\n");
            reply.finish(ExitCode.BUSY, Map.of());
            return;
        }
        reply.finish(0, Map.of("url", signIn.get()));
    }

    /** This process's resident set size in KiB (Linux), or -1. */
    static long rssKb() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        }
        catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    /**
     * A command line as the caller typed it, carried out here by the same command tree as
     * in its own process ({@link CommandTree}), for the caller's directory, zone and
     * terminal; what it prints is streamed back as it prints it, then its exit code.
     */
    private void command(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        List<String> args = new ArrayList<>();
        if (request.get("args") instanceof List<?> list) {
            list.forEach(a -> args.add(String.valueOf(a)));
        }
        if (args.isEmpty() || !COMMANDS.contains(args.get(0))) {
            reply.err("code-memory serve runs " + String.join(", ", new java.util.TreeSet<>(COMMANDS)) + ", not " + args
                    + "\n");
            reply.finish(ExitCode.USAGE, Map.of());
            return;
        }
        ServedInvocation invocation = new ServedInvocation(Path.of(String.valueOf(request.get("cwd"))),
                zone(request.get("zone")), Boolean.TRUE.equals(request.get("terminal")), home, resident, context,
                jobRunner);
        int exit;
        try (PrintStream out = reply.stream(false); PrintStream err = reply.stream(true)) {
            exit = commands.commandLine(out, err, invocation).execute(args.toArray(String[]::new));
        }
        reply.finish(exit, Map.of());
    }

    /**
     * One MCP tool call from an {@code mcp} process ({@code tool}, {@code arguments}, the
     * client's {@code cwd} and {@code zone}), answered on serve's warm services:
     * {@code text} and {@code error}. A {@code mem-save} starts a graduation soon after
     * ({@link SaveGraduation}).
     */
    private void mcp(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        ServedInvocation invocation = new ServedInvocation(Path.of(String.valueOf(request.get("cwd"))),
                zone(request.get("zone")), false, home, resident, context, jobRunner);
        Map<?, ?> arguments = request.get("arguments") instanceof Map<?, ?> m ? m : Map.of();
        reply.finish(0,
                new MemoryTools(invocation, true, saves::saved).call(String.valueOf(request.get("tool")), arguments)
                    .toJson());
    }

    private static ZoneId zone(Object id) {
        try {
            return id instanceof String s ? ZoneId.of(s) : ZoneId.systemDefault();
        }
        catch (java.time.DateTimeException e) {
            return ZoneId.systemDefault(); // a zone this JVM does not know
        }
    }

    /**
     * Runs the job here (after any job already running), streaming each stage's line as
     * it ends and then the summary, exactly as the command prints them in its own
     * process.
     */
    private void job(String name, ServeServer.Reply reply) throws IOException {
        int exit;
        try (PrintStream out = reply.stream(false); PrintStream err = reply.stream(true)) {
            out.println(
                    "job " + name + ": running in code-memory serve (process " + ProcessHandle.current().pid() + ")");
            exit = jobs.runJob(name, out, err, false);
        }
        reply.finish(exit, Map.of());
    }

    private static long number(Object value) {
        if (value instanceof Json.JsonNumber n) {
            return Long.parseLong(n.literal());
        }
        throw new IllegalArgumentException("expected a number, was " + value);
    }

}
