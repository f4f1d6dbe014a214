package dev.codememory.jobs.serve;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.cli.JobCommandRunner;
import dev.codememory.jobs.cli.TaskCommands;
import dev.codememory.jobs.context.HookContext;
import dev.codememory.jobs.context.PromptContextService.QueryLease;
import dev.codememory.jobs.context.SessionLease;
import dev.codememory.jobs.query.QueryCommand;
import dev.codememory.jobs.query.QueryRequest;
import dev.codememory.jobs.query.QueryResult;
import dev.codememory.jobs.query.QueryService;
import dev.codememory.processors.query.RankingSettings;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import dev.codememory.jobs.query.ShowCommand;
import dev.codememory.jobs.runtime.JobRunner;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

/**
 * What {@code serve} answers on its socket: the hook's context (with the warm model and indexes), the read commands
 * ({@code query}, {@code show}, {@code tasks}, {@code task}, {@code blocked}) on its own database session, and
 * {@code --job=NAME}, run here with its progress streamed back. The commands are the same code as when they run in
 * their own process; only where the session and the query service come from differs.
 */
public class ServeRequests implements ServeServer.Handler {

    private static final Set<String> COMMANDS = Set.of("query", "show", "tasks", "task", "blocked");
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(1);

    private final CodeMemoryHome home;
    private final ResidentQueries resident;
    private final JobRunner jobRunner;

    public ServeRequests(CodeMemoryHome home, ResidentQueries resident, JobRunner jobRunner) {
        this.home = home;
        this.resident = resident;
        this.jobRunner = jobRunner;
    }

    @Override
    public void handle(Map<?, ?> request, ServeServer.Reply reply) throws Exception {
        String op = String.valueOf(request.get("op"));
        switch (op) {
            case "ping" -> reply.finish(0, Map.of("warm", resident.warm(), "rss_kb", rssKb()));
            case "hook" -> hook(request, reply);
            case "search" -> search(request, reply);
            case "nearest" -> nearest(request, reply);
            case "command" -> command(request, reply);
            case "job" -> job(String.valueOf(request.get("name")), reply);
            default -> {
                reply.err("code-memory serve: unknown request '" + op + "'\n");
                reply.finish(JobCommandRunner.EXIT_USAGE, Map.of());
            }
        }
    }

    private void hook(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        Instant started = Instant.ofEpochMilli(number(request.get("started")));
        Instant deadline = Instant.ofEpochMilli(number(request.get("deadline")));
        List<String> info = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        String stdout = HookContext.respond(home, String.valueOf(request.get("line")), started,
                Duration.between(started, deadline), (where, e) -> errors.add(where + " " + e.getClass().getName()
                        + ": " + String.valueOf(e.getMessage()).replace('\n', ' ')), info::add, resident.hookServices());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("stdout", stdout);
        answer.put("info", info);
        answer.put("errors", errors);
        reply.finish(0, answer);
    }

    /**
     * One hybrid search with the warm model and indexes (embed the text, rank, attach sources): what a prompt costs
     * serve before the context is written. Answers the memory ids, best first, and serve's own times.
     */
    private void search(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        String text = String.valueOf(request.get("text"));
        String project = request.get("project") instanceof String p ? p : null;
        int topK = (int) number(request.get("top_k"));
        long start = System.nanoTime();
        QueryService service = resident.queryService(RankingSettings.defaults());
        float[] vector = service.embedder().embed(List.of(text))[0];
        long embedded = System.nanoTime();
        List<QueryResult> hits = service.search(new QueryRequest(null, text, project,
                LocalDateTime.now(ZoneOffset.UTC)), vector, topK);
        long searched = System.nanoTime();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("ids", hits.stream().map(QueryResult::memoryId).toList());
        answer.put("embed_us", (embedded - start) / 1_000);
        answer.put("search_us", (searched - embedded) / 1_000);
        reply.finish(0, answer);
    }

    /**
     * The nearest vectors of a text in a project as serve's index finds them, and as an exact scan of the same vectors
     * does: the bench's recall of the graph against exact search.
     */
    private void nearest(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        String text = String.valueOf(request.get("text"));
        String project = String.valueOf(request.get("project"));
        int k = (int) number(request.get("k"));
        float[] vector = resident.queryService(RankingSettings.defaults()).embedder().embed(List.of(text))[0];
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("found", resident.nearest(project, vector, k, false));
        answer.put("exact", resident.nearest(project, vector, k, true));
        reply.finish(0, answer);
    }

    /** This process's resident set size in KiB (Linux), or -1. */
    static long rssKb() {
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return -1;
    }

    private void command(Map<?, ?> request, ServeServer.Reply reply) throws IOException {
        List<String> args = new ArrayList<>();
        if (request.get("args") instanceof List<?> list) {
            list.forEach(a -> args.add(String.valueOf(a)));
        }
        if (args.isEmpty() || !COMMANDS.contains(args.get(0))) {
            reply.err("code-memory serve runs query, show, tasks, task and blocked, not " + args + "\n");
            reply.finish(JobCommandRunner.EXIT_USAGE, Map.of());
            return;
        }
        Path cwd = Path.of(String.valueOf(request.get("cwd")));
        String[] argv = args.toArray(String[]::new);
        int exit;
        try (PrintStream out = reply.stream(false); PrintStream err = reply.stream(true)) {
            exit = switch (argv[0]) {
                case "query" -> QueryCommand.run(argv, cwd, home, out, err,
                        settings -> new QueryLease(SessionLease.lent(resident.session()),
                                resident.queryService(settings)));
                case "show" -> ShowCommand.run(argv, home, out, err, () -> SessionLease.lent(resident.session()));
                default -> TaskCommands.run(argv, home, out, err, () -> SessionLease.lent(resident.session()));
            };
        }
        reply.finish(exit, Map.of());
    }

    /** Runs the job here (after any job already running), printing each step as it ends, then the result. */
    private void job(String name, ServeServer.Reply reply) throws IOException {
        PrintStream out = reply.stream(false);
        PrintStream err = reply.stream(true);
        out.println("job " + name + ": running in code-memory serve (process " + ProcessHandle.current().pid() + ")");
        JobExecution before = jobRunner.jobNames().contains(name) ? jobRunner.lastExecution(name) : null;
        long previousId = before == null ? -1 : before.getId();
        AtomicBoolean done = new AtomicBoolean();
        Thread progress = new Thread(() -> progress(name, previousId, out, done), "code-memory-job-progress");
        progress.setDaemon(true);
        progress.start();
        int exit;
        java.io.ByteArrayOutputStream resultOut = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream resultErr = new java.io.ByteArrayOutputStream();
        try {
            // the result is printed after the last step's line
            exit = JobCommandRunner.runJob(jobRunner, name,
                    new PrintStream(resultOut, true, java.nio.charset.StandardCharsets.UTF_8),
                    new PrintStream(resultErr, true, java.nio.charset.StandardCharsets.UTF_8));
        } finally {
            done.set(true);
            try {
                progress.join(PROGRESS_EVERY.toMillis() * 3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        out.print(resultOut.toString(java.nio.charset.StandardCharsets.UTF_8));
        err.print(resultErr.toString(java.nio.charset.StandardCharsets.UTF_8));
        out.flush();
        err.flush();
        reply.finish(exit, Map.of());
    }

    /** Prints each step of the job's new execution once it has ended, with its counts. */
    private void progress(String name, long previousId, PrintStream out, AtomicBoolean done) {
        Set<Long> printed = new HashSet<>();
        boolean last = false;
        while (!last) {
            last = done.get();
            JobExecution latest = jobRunner.jobNames().contains(name) ? jobRunner.lastExecution(name) : null;
            if (latest != null && latest.getId() != previousId) {
                JobExecution current = jobRunner.execution(latest.getId());
                if (current != null) {
                    for (StepExecution step : current.getStepExecutions()) {
                        if (!step.getStatus().isRunning() && printed.add(step.getId())) {
                            long ms = step.getStartTime() == null || step.getEndTime() == null ? 0
                                    : Duration.between(step.getStartTime(), step.getEndTime()).toMillis();
                            out.printf(Locale.ROOT, "  %-26s %-9s read %7d  written %7d  skipped %4d  %6d ms%n",
                                    step.getStepName(), step.getStatus(), step.getReadCount(), step.getWriteCount(),
                                    step.getSkipCount(), ms);
                        }
                    }
                }
            }
            if (!last) {
                try {
                    Thread.sleep(PROGRESS_EVERY.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private static long number(Object value) {
        if (value instanceof Json.JsonNumber n) {
            return Long.parseLong(n.literal());
        }
        throw new IllegalArgumentException("expected a number, was " + value);
    }
}
