package dev.codememory.jobs.query;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.cli.JobCommandRunner;
import dev.codememory.jobs.context.PromptContextService.QueryLease;
import dev.codememory.jobs.context.SessionLease;
import dev.codememory.jobs.serve.ServeClient;
import java.util.OptionalInt;
import java.util.function.Function;
import dev.codememory.jobs.vector.VectorComponents;
import dev.codememory.processors.query.MatchBand;
import dev.codememory.processors.query.RankingSettings;
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

/**
 * {@code query [--project DIR | --all-projects] [--top-k N] [--json] TEXT} prints the memories for TEXT, best first;
 * {@code query --input FILE --output FILE [--top-k N] [--all-projects]} answers one JSON query per input line
 * ({@code qid, text, project?, at?}) with one line {@code {"qid","results":[…]}} each (DESIGN §3.2). A query's
 * project is the git top level of its directory (the {@code project} field, {@code --project}, else the current
 * directory), else that directory. {@code --set key=value} overrides a ranking setting (for tuning).
 */
public final class QueryCommand {

    static final int DEFAULT_TOP_K = 10;

    private QueryCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        QueryLogging.toStderr();
        CodeMemoryHome home = CodeMemoryHome.resolve();
        Path cwd = Path.of("").toAbsolutePath();
        OptionalInt served = ServeClient.forHome(home).command(args, cwd, out, err);
        if (served.isPresent()) {
            return served.getAsInt();
        }
        VectorComponents components = VectorComponents.forHome(home);
        return run(args, cwd, home, out, err, settings -> {
            SessionLease lease = new SessionLease(DuckDb.forHome(home).open(), true);
            return new QueryLease(lease, new QueryService(lease.session(), components.embedder(),
                    () -> components.vectorStore(lease.session()::connection), settings));
        });
    }

    /**
     * The command on the query services given: this process's own (the database opened for it), or those of the
     * resident {@code serve}, warm. Relative paths are resolved against {@code cwd}.
     */
    public static int run(String[] args, Path cwd, CodeMemoryHome home, PrintStream out, PrintStream err,
            Function<RankingSettings, QueryLease> queries) {
        Options o;
        try {
            o = Options.parse(args, cwd);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println("usage: query [--project DIR | --all-projects] [--top-k N] [--json] TEXT");
            err.println("       query --input FILE --output FILE [--top-k N] [--all-projects]");
            return JobCommandRunner.EXIT_USAGE;
        }
        if (!home.database().toFile().exists()) {
            err.println("no memory yet: run `java -jar jobs.jar --job=graduate` first");
            if (o.input == null) {
                return 0;
            }
        }
        ProjectResolver projects = new ProjectResolver();
        String defaultProject = o.allProjects ? null
                : projects.projectOf(o.project == null ? cwd.toString() : o.project.toString());
        try (QueryLease lease = queries.apply(o.settings)) {
            QueryService service = lease.service();
            if (o.input != null) {
                return batch(service, o, projects, defaultProject, out);
            }
            QueryRequest request = new QueryRequest(null, o.text, defaultProject,
                    LocalDateTime.now(ZoneOffset.UTC));
            List<QueryResult> results = service.search(List.of(request), o.topK).get(0);
            print(results, o.json, out);
            return 0;
        } catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return JobCommandRunner.EXIT_BUSY;
        } catch (QueryException | IOException e) {
            err.println("query failed: " + e.getMessage());
            return 1;
        }
    }

    private static int batch(QueryService service, Options o, ProjectResolver projects, String defaultProject,
            PrintStream out) throws IOException {
        long start = System.nanoTime();
        List<QueryRequest> requests = readRequests(o.input, projects, defaultProject, o.allProjects);
        List<List<QueryResult>> answers = service.search(requests, o.topK);
        try (BufferedWriter w = Files.newBufferedWriter(o.output, StandardCharsets.UTF_8)) {
            for (int i = 0; i < requests.size(); i++) {
                w.write(resultLine(requests.get(i).qid(), answers.get(i)));
                w.newLine();
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        out.printf("answered %d queries in %d ms (%.1f ms/query) into %s%n", requests.size(), ms,
                requests.isEmpty() ? 0.0 : (double) ms / requests.size(), o.output);
        return 0;
    }

    static String resultLine(String qid, List<QueryResult> results) {
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
            } catch (RuntimeException e) {
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

    /** ISO-8601 with a zone or offset, converted to UTC; without one it is taken as UTC. */
    static LocalDateTime parseTime(String s, Path input, int lineNo) {
        try {
            return OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(s);
            } catch (DateTimeParseException e2) {
                throw new QueryException(input + " line " + lineNo + ": \"at\" is not ISO-8601: " + s, e2);
            }
        }
    }

    private static void print(List<QueryResult> results, boolean json, PrintStream out) {
        MatchBand band = MatchBand.of(results.stream().map(QueryResult::score).toList());
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("band", band.name().toLowerCase(java.util.Locale.ROOT));
            doc.put("results", results.stream().map(r -> (Object) r.toJson()).toList());
            out.println(Json.write(doc));
            return;
        }
        if (results.isEmpty()) {
            out.println("no memories found");
            return;
        }
        out.println("match: " + band.name().toLowerCase(java.util.Locale.ROOT));
        for (int i = 0; i < results.size(); i++) {
            QueryResult r = results.get(i);
            out.printf("%2d. [%s] %.3f %-11s %s%n", i + 1, r.citation(), r.score(), r.kind(), r.summary());
            if (!r.sources().isEmpty()) {
                out.printf("    %d source event(s), %s … %s%n", r.sources().size(), r.sources().get(0).ts(),
                        r.sources().get(r.sources().size() - 1).ts());
            }
        }
    }

    private static final class Options {
        Path project;
        boolean allProjects;
        int topK = DEFAULT_TOP_K;
        boolean json;
        Path input;
        Path output;
        String text;
        RankingSettings settings = RankingSettings.defaults();

        static Options parse(String[] args) {
            return parse(args, Path.of("").toAbsolutePath());
        }

        static Options parse(String[] args, Path cwd) {
            Options o = new Options();
            List<String> words = new ArrayList<>();
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--project" -> o.project = cwd.resolve(value(args, ++i, a)).normalize();
                    case "--all-projects" -> o.allProjects = true;
                    case "--json" -> o.json = true;
                    case "--top-k" -> {
                        try {
                            o.topK = Integer.parseInt(value(args, ++i, a));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--top-k needs a positive number");
                        }
                        if (o.topK < 1) {
                            throw new IllegalArgumentException("--top-k needs a positive number");
                        }
                    }
                    case "--input" -> o.input = cwd.resolve(value(args, ++i, a));
                    case "--output" -> o.output = cwd.resolve(value(args, ++i, a));
                    case "--set" -> o.settings = applySetting(o.settings, value(args, ++i, a));
                    default -> {
                        if (a.startsWith("--") && words.isEmpty()) {
                            throw new IllegalArgumentException("unknown option " + a);
                        }
                        words.add(a);
                    }
                }
            }
            if ((o.input == null) != (o.output == null)) {
                throw new IllegalArgumentException("--input and --output go together");
            }
            if (o.input != null && !words.isEmpty()) {
                throw new IllegalArgumentException("batch mode takes no TEXT");
            }
            if (o.input == null && words.isEmpty()) {
                throw new IllegalArgumentException("query needs TEXT");
            }
            o.text = String.join(" ", words);
            return o;
        }

        static RankingSettings applySetting(RankingSettings settings, String kv) {
            int eq = kv.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--set needs key=value, was " + kv);
            }
            return settings.with(kv.substring(0, eq), kv.substring(eq + 1));
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
