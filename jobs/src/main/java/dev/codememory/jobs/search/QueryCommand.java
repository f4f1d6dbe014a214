package dev.codememory.jobs.search;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.settings.HomeSettings;
import dev.codememory.jobs.command.Commands;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.query.QueryAnswer;
import dev.codememory.retrieval.query.QueryException;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code query [--project DIR | --all-projects] [--top-k N] [--json] TEXT} prints the
 * memories for TEXT, best first;
 * {@code query --input FILE --output FILE [--top-k N] [--all-projects]} answers one JSON
 * query per input line ({@code qid, text, project?, at?}) with one line
 * {@code {"qid","results":[…]}} each. A query's project is the git top level of its
 * directory (the {@code project} field, {@code --project}, else the current directory),
 * else that directory. {@code --set key=value} overrides a ranking setting (for tuning).
 * {@code search} is the same command.
 */
@Command(name = "query", header = "the memories for a text, best first, with citations (also: search)",
        aliases = "search", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Prints the memories for TEXT, best first, scoped to a project: hybrid BM25 + vector + recency "
                        + "+ kind/status, each with its citation (mem:xxxxxx, see `show`) and its source events.",
                "Batch mode (--input/--output) answers one JSON query per line: {\"qid\",\"text\",\"project\"?,\"at\"?}." },
        footer = { "", "Exit codes: 0 answered (also when nothing matched), 1 failed, 2 bad usage, 3 a job holds the "
                + "database." })
public final class QueryCommand implements Callable<Integer> {

    static final int DEFAULT_TOP_K = 10;

    @Option(names = "--project", paramLabel = "DIR",
            description = "the project (its git top level) to search; " + "default: the current directory's")
    String project;

    @Option(names = "--all-projects", description = "search every project")
    boolean allProjects;

    @Option(names = "--top-k", paramLabel = "N", description = "how many memories (default: ${DEFAULT-VALUE})")
    int topK = DEFAULT_TOP_K;

    @Option(names = "--json",
            description = "print one JSON object: {band, results}; in band none the results are near misses")
    boolean json;

    @Option(names = "--near-misses",
            description = "when nothing matches (band none), show the memories nearest anyway; without it, "
                    + "`nothing matches` and how many there were")
    boolean nearMisses;

    @Option(names = "--input", paramLabel = "FILE", description = "batch mode: one JSON query per line")
    Path input;

    @Option(names = "--output", paramLabel = "FILE", description = "batch mode: where the answers go")
    Path output;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a ranking setting (tuning)")
    List<String> sets = new ArrayList<>();

    @Parameters(paramLabel = "TEXT", arity = "0..*", description = "what to look for")
    List<String> words = new ArrayList<>();

    @Spec
    CommandSpec spec;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    /**
     * The command in its own process: the database opened for it, the model loaded if a
     * query needs it.
     */
    public QueryCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /**
     * The command for {@code invocation}: in serve, on its warm query services, for a
     * caller whose relative paths resolve against their directory.
     */
    public QueryCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    private static Function<RankingSettings, QueryLease> ownQueries(CodeMemoryHome home) {
        return settings -> {
            VectorComponents components = VectorComponents.forHome(home);
            SessionLease lease = new SessionLease(DuckDb.forHome(home).open(Invocation.LOCK_PATIENCE), true);
            return new QueryLease(lease,
                    new QueryService(lease.session(), components.embedder(),
                            () -> components.vectorStore(lease.session()::connection), settings)
                        .withTeam(components.teamSource()));
        };
    }

    /** {@code args} may start with the command's name. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Commands.execute(new QueryCommand(out, err),
                Commands.withoutName(Commands.withoutName(args, "query"), "search"), out, err);
    }

    @Override
    public Integer call() {
        invocation.logToStderr();
        RankingSettings settings = RankingSettings.defaults();
        try {
            if (topK < 1) {
                throw new IllegalArgumentException("--top-k needs a positive number");
            }
            if ((input == null) != (output == null)) {
                throw new IllegalArgumentException("--input and --output go together");
            }
            if (input != null && !words.isEmpty()) {
                throw new IllegalArgumentException("batch mode takes no TEXT");
            }
            if (input == null && words.isEmpty()) {
                throw new IllegalArgumentException("query needs TEXT");
            }
            for (String kv : sets) {
                settings = applySetting(settings, kv);
            }
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        String text = String.join(" ", words);
        CodeMemoryHome home = invocation.home();
        Path cwd = invocation.cwd();
        Function<RankingSettings, QueryLease> queries = invocation.residentQueries();
        Path inputFile = input == null ? null : cwd.resolve(input);
        Path outputFile = output == null ? null : cwd.resolve(output);
        // a new teammate's empty home still has the team's memories to search
        if (!home.database().toFile().exists() && !HomeSettings.team(home).enabled()) {
            err.println("no memory yet: run `java -jar jobs.jar --job=graduate` first");
            if (input == null) {
                return 0;
            }
        }
        ProjectResolver projects = new ProjectResolver();
        String defaultProject = allProjects ? null
                : projects.projectOf(cwd.resolve(project == null ? "" : project).normalize().toString());
        try (QueryLease lease = (queries != null ? queries : ownQueries(home)).apply(settings)) {
            QueryService service = lease.service();
            if (input != null) {
                return batch(service, projects, defaultProject, inputFile, outputFile, out);
            }
            QueryRequest request = new QueryRequest(null, text, defaultProject, LocalDateTime.now(ZoneOffset.UTC));
            print(text, service.answer(request, topK), nearMisses, json, out);
            return 0;
        }
        catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return ExitCode.BUSY;
        }
        catch (QueryException | IOException e) {
            err.println("query failed: " + e.getMessage());
            return 1;
        }
    }

    private int batch(QueryService service, ProjectResolver projects, String defaultProject, Path input, Path output,
            PrintStream out) throws IOException {
        long start = System.nanoTime();
        List<QueryRequest> requests = readRequests(input, projects, defaultProject, allProjects);
        List<List<QueryResult>> answers = service.search(requests, topK);
        try (BufferedWriter w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            for (int i = 0; i < requests.size(); i++) {
                w.write(resultLine(requests.get(i).qid(), answers.get(i)));
                w.newLine();
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        out.printf("answered %d queries in %d ms (%.1f ms/query) into %s%n", requests.size(), ms,
                requests.isEmpty() ? 0.0 : (double) ms / requests.size(), output);
        return 0;
    }

    /**
     * One line of {@code query --output}: {@code {"qid","results":[…]}}, as the eval
     * reads it back.
     */
    public static String resultLine(String qid, List<QueryResult> results) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("qid", qid);
        line.put("results", results.stream().map(r -> (Object) r.toJson()).toList());
        return Json.write(line);
    }

    static List<QueryRequest> readRequests(Path input, ProjectResolver projects, String defaultProject,
            boolean allProjects) throws IOException {
        List<QueryRequest> requests = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(input, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> q;
            try {
                q = (Map<?, ?>) Json.parse(line);
            }
            catch (RuntimeException e) {
                throw new QueryException(input + " line " + lineNo + " is not a JSON object: " + e.getMessage(), e);
            }
            Object qid = q.get("qid");
            Object text = q.get("text");
            if (!(text instanceof String) || qid == null) {
                throw new QueryException(input + " line " + lineNo + " needs \"qid\" and \"text\"");
            }
            String project = allProjects ? null
                    : q.get("project") instanceof String p ? projects.projectOf(p) : defaultProject;
            LocalDateTime at = q.get("at") instanceof String s ? parseTime(s, input, lineNo)
                    : LocalDateTime.now(ZoneOffset.UTC);
            requests.add(new QueryRequest(qid instanceof Json.JsonNumber n ? n.literal() : qid.toString(),
                    (String) text, project, at));
        }
        return requests;
    }

    /**
     * ISO-8601 with a zone or offset, converted to UTC; without one it is taken as UTC.
     */
    static LocalDateTime parseTime(String s, Path input, int lineNo) {
        try {
            return OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(s);
            }
            catch (DateTimeParseException e2) {
                throw new QueryException(input + " line " + lineNo + ": \"at\" is not ISO-8601: " + s, e2);
            }
        }
    }

    /**
     * Prints an answer: the matches; when nothing matches, says so, and lists the near
     * misses only when asked for ({@code --near-misses}). As JSON, for scripts that read
     * the band themselves: {@code band} and every ranked result, as before.
     */
    static void print(String text, QueryAnswer answer, boolean nearMisses, boolean json, PrintStream out) {
        String band = answer.band().name().toLowerCase(java.util.Locale.ROOT);
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("band", band);
            doc.put("results", answer.ranked().stream().map(r -> (Object) r.toJson()).toList());
            out.println(Json.write(doc));
            return;
        }
        if (answer.ranked().isEmpty()) {
            out.println("no memories found");
            return;
        }
        if (answer.nothingMatches()) {
            int n = answer.nearMisses().size();
            out.println("nothing matches \"" + text + "\"" + (nearMisses ? "; near misses:"
                    : " (" + n + " near miss" + (n == 1 ? "" : "es") + ": --near-misses lists them)"));
            if (nearMisses) {
                list(answer.nearMisses(), out);
            }
            return;
        }
        out.println("match: " + band);
        list(answer.matches(), out);
    }

    private static void list(List<QueryResult> results, PrintStream out) {
        for (int i = 0; i < results.size(); i++) {
            QueryResult r = results.get(i);
            out.printf("%2d. [%s] %.3f %-11s %s%s%n", i + 1, r.citation(), r.score(), r.kind(),
                    r.team() ? "(team: " + r.author() + ") " : "", r.summary());
            if (!r.sources().isEmpty()) {
                out.printf("    %d source event(s), %s … %s%n", r.sources().size(), r.sources().get(0).ts(),
                        r.sources().get(r.sources().size() - 1).ts());
            }
        }
    }

    static RankingSettings applySetting(RankingSettings settings, String kv) {
        int eq = kv.indexOf('=');
        if (eq < 1) {
            throw new IllegalArgumentException("--set needs key=value, was " + kv);
        }
        return settings.with(kv.substring(0, eq), kv.substring(eq + 1));
    }

}
