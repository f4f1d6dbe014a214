package dev.codememory.jobs.report;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.readers.continuity.ContinuityQueries;
import dev.codememory.readers.distill.DistillQueries;
import dev.codememory.readers.report.ReportQueries;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the store holds and how it is doing, as data: events (by hook event and source),
 * sessions and projects, memories by kind and state, tasks by status, how much sessions
 * go on with the one before (continuity), the spool backlog, the lag from capture to
 * memory, whether capture is failing (a full disk), the last job runs and the disk each
 * part of the home takes. Read from DuckDB and the home's files; nothing is changed. The
 * {@code stats} command and MCP's {@code mem-stats} format it.
 */
public final class Stats {

    /** The continuity line is over this many newest scored sessions. */
    static final int CONTINUITY_SESSIONS = 10;

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private Stats() {
    }

    /**
     * The report ({@code doc}, in the shape {@code stats --json} prints), the exit code
     * of reading the store (0, or 3 when a job holds the database: the spool and disk
     * figures are there anyway) and what went wrong reading it (empty when nothing did).
     */
    public record Report(Map<String, Object> doc, int exit, String problem) {
    }

    /** Reads the report for the invocation's home, as the invocation reads it. */
    public static Report collect(Invocation invocation) throws IOException {
        CodeMemoryHome home = invocation.home();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("home", home.root().toString());
        doc.put("spool", spool(home));
        doc.put("disk", disk(home));
        java.io.ByteArrayOutputStream problems = new java.io.ByteArrayOutputStream();
        int exit;
        try (PrintStream err = new PrintStream(problems, true, StandardCharsets.UTF_8)) {
            exit = StoreReader.read(invocation, new PrintStream(java.io.OutputStream.nullOutputStream()), err, "",
                    c -> {
                        store(c, doc);
                        return 0;
                    });
        }
        if (!home.database().toFile().exists()) {
            doc.put("store", "no memory yet: install the hooks, import your transcripts, or try `demo`");
        }
        else if (exit != 0) {
            doc.put("store", "not readable now (see the message above)");
        }
        return new Report(doc, exit, problems.toString(StandardCharsets.UTF_8).strip());
    }

    private static void store(Connection c, Map<String, Object> doc) throws SQLException {
        ReportQueries.Counts counts = ReportQueries.counts(c);
        Map<String, Object> events = new LinkedHashMap<>();
        events.put("total", counts.events());
        events.put("by_type", counts.eventsByType());
        events.put("by_source", counts.eventsBySource());
        events.put("rejected_lines", counts.rejects());
        doc.put("events", events);
        doc.put("sessions", counts.sessions());
        doc.put("projects", counts.projects());
        Map<String, Object> memories = new LinkedHashMap<>();
        memories.put("verified_active", counts.memoriesByKind().values().stream().mapToLong(Long::longValue).sum());
        memories.put("by_kind", counts.memoriesByKind());
        memories.put("by_state", counts.memoriesByState());
        doc.put("memories", memories);
        doc.put("tasks", counts.tasksByStatus());
        List<ContinuityQueries.Score> scores = ContinuityQueries.recent(c, null, CONTINUITY_SESSIONS);
        Map<String, Object> continuity = new LinkedHashMap<>();
        continuity.put("sessions", scores.size());
        OptionalDouble mean = ContinuityQueries.mean(scores);
        continuity.put("mean", mean.isPresent() ? mean.getAsDouble() : null);
        continuity.put("last", scores.isEmpty() ? null : scores.get(0).score());
        doc.put("continuity", continuity);
        ReportQueries.Lag lag = ReportQueries.lag(c);
        Map<String, Object> lagDoc = new LinkedHashMap<>();
        lagDoc.put("events_not_graduated", lag.pendingEvents());
        lagDoc.put("oldest_not_graduated", time(lag.oldestPending()));
        lagDoc.put("capture_to_memory_median_seconds", lag.medianSeconds());
        lagDoc.put("capture_to_memory_p95_seconds", lag.p95Seconds());
        lagDoc.put("memories_measured", lag.memoriesMeasured());
        doc.put("lag", lagDoc);
        List<Object> runs = new ArrayList<>();
        for (ReportQueries.Run r : ReportQueries.lastRuns(c, 5)) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("job", r.job());
            run.put("status", r.status());
            run.put("started_at", time(r.startedAt()));
            run.put("finished_at", time(r.finishedAt()));
            run.put("seconds", r.finishedAt() == null || r.startedAt() == null ? null
                    : Duration.between(r.startedAt(), r.finishedAt()).toMillis() / 1000.0);
            runs.add(run);
        }
        doc.put("last_runs", runs);
        doc.put("forgotten_keys", counts.forgottenKeys());
        doc.put("distill", distill(c));
    }

    /**
     * The opt-in distill step: sessions by outcome, claims proven and rejected by reason,
     * and what its requests cost on each of the last 7 days they were made.
     */
    private static Map<String, Object> distill(Connection c) throws SQLException {
        Map<String, Object> distill = new LinkedHashMap<>();
        distill.put("sessions", DistillQueries.outcomes(c));
        distill.put("claims", DistillQueries.claims(c));
        List<Object> days = new ArrayList<>();
        DistillQueries.usagePerDay(c, 7).forEach((day, usage) -> {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("day", day.toString());
            d.put("requests", usage[0]);
            d.put("input_tokens", usage[1]);
            d.put("output_tokens", usage[2]);
            days.add(d);
        });
        distill.put("per_day", days);
        return distill;
    }

    /**
     * Lines waiting in the spool: the file hooks append to and sealed files not ingested
     * yet.
     */
    private static Map<String, Object> spool(CodeMemoryHome home) throws IOException {
        Spool spool = Spool.forHome(home);
        List<Path> files = new ArrayList<>(spool.sealedFiles());
        if (Files.exists(spool.currentFile())) {
            files.add(spool.currentFile());
        }
        long lines = 0;
        long bytes = 0;
        String oldest = null;
        for (Path f : files) {
            bytes += Files.size(f);
            try (Stream<String> s = Files.lines(f, StandardCharsets.UTF_8)) {
                List<String> all = s.toList();
                lines += all.size();
                if (oldest == null && !all.isEmpty()) {
                    oldest = receivedAt(all.get(0));
                }
            }
            catch (java.io.UncheckedIOException e) {
                // a line that is not UTF-8: count the file's lines without reading them
                // as text
                try (Stream<String> s = Files.lines(f, StandardCharsets.ISO_8859_1)) {
                    lines += s.count();
                }
            }
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("lines", lines);
        doc.put("files", files.size());
        doc.put("bytes", bytes);
        doc.put("oldest_received_at", oldest);
        // set while hooks cannot append (a full disk): events are being lost
        Spool.Failure failure = spool.failure().orElse(null);
        doc.put("capture_failing_since", failure == null ? null : failure.since().toString());
        doc.put("capture_failing_reason", failure == null ? null : failure.reason());
        return doc;
    }

    private static String receivedAt(String line) {
        try {
            return Json.parse(line) instanceof Map<?, ?> m && m.get("received_at") instanceof String s ? s : null;
        }
        catch (RuntimeException e) {
            return null;
        }
    }

    private static Map<String, Object> disk(CodeMemoryHome home) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("database", size(home.database()) + size(home.root().resolve("memory.duckdb.wal")));
        doc.put("batch_metadata", size(home.batchMetadata()) + size(home.root().resolve("batch-metadata.sqlite-wal")));
        doc.put("spool", size(home.spool()));
        doc.put("logs", size(home.logs()));
        doc.put("model_cache", size(home.root().resolve("djl")));
        doc.put("total", size(home.root()));
        return doc;
    }

    private static long size(Path path) throws IOException {
        if (!Files.exists(path)) {
            return 0;
        }
        if (!Files.isDirectory(path)) {
            return Files.size(path);
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                }
                catch (IOException e) {
                    return 0; // gone while we walked
                }
            }).sum();
        }
    }

    /** The report as the lines {@code stats} prints. */
    public static String text(Map<String, Object> doc) {
        java.io.StringWriter text = new java.io.StringWriter();
        print(doc, new java.io.PrintWriter(text));
        return text.toString();
    }

    @SuppressWarnings("unchecked")
    private static void print(Map<String, Object> doc, java.io.PrintWriter out) {
        out.println("code-memory at " + doc.get("home"));
        if (doc.get("events") instanceof Map<?, ?> events) {
            out.printf("events      %s (%s)%n", n(events.get("total")),
                    list((Map<String, Long>) events.get("by_type")));
            out.printf("            from %s; %s spool line(s) rejected%n",
                    list((Map<String, Long>) events.get("by_source")), n(events.get("rejected_lines")));
            out.printf("sessions    %s in %s project(s)%n", n(doc.get("sessions")), n(doc.get("projects")));
            Map<String, Object> memories = (Map<String, Object>) doc.get("memories");
            out.printf("memories    %s verified and active (%s)%n", n(memories.get("verified_active")),
                    list((Map<String, Long>) memories.get("by_kind")));
            out.printf("            by state: %s%n", list((Map<String, Long>) memories.get("by_state")));
            Map<String, Long> tasks = (Map<String, Long>) doc.get("tasks");
            out.printf("tasks       %s (%s)%n", n(tasks.values().stream().mapToLong(Long::longValue).sum()),
                    list(tasks));
            Map<String, Object> continuity = (Map<String, Object>) doc.get("continuity");
            out.printf("continuity  %s%n", continuity.get("mean") == null ? "no two sessions scored yet"
                    : String.format(Locale.ROOT, "%.2f on average over the last %s session(s), %s the last",
                            (Double) continuity.get("mean"), continuity.get("sessions"), continuity.get("last") == null
                                    ? "n/a" : String.format(Locale.ROOT, "%.2f", (Double) continuity.get("last"))));
        }
        else {
            out.println("store       " + doc.get("store"));
        }
        if (doc.get("distill") instanceof Map<?, ?> distill) {
            Map<String, Long> sessions = (Map<String, Long>) distill.get("sessions");
            if (sessions.isEmpty()) {
                out.println("distill     no session distilled (off by default: code-memory.distill.enabled)");
            }
            else {
                Map<String, Long> claims = new LinkedHashMap<>((Map<String, Long>) distill.get("claims"));
                Long proven = claims.remove("proven");
                out.printf("distill     sessions %s; claims proven %s, rejected %s%n", list(sessions), n(proven),
                        claims.isEmpty() ? "none" : list(claims));
                for (Object day : (List<Object>) distill.get("per_day")) {
                    Map<String, Object> d = (Map<String, Object>) day;
                    out.printf("            %s: %s request(s), %s input + %s output tokens%n", d.get("day"),
                            n(d.get("requests")), n(d.get("input_tokens")), n(d.get("output_tokens")));
                }
            }
        }
        Map<String, Object> spool = (Map<String, Object>) doc.get("spool");
        out.printf("spool       %s line(s) waiting to be ingested%s%n", n(spool.get("lines")),
                spool.get("oldest_received_at") == null ? ""
                        : ", the oldest received " + spool.get("oldest_received_at"));
        if (doc.get("lag") instanceof Map<?, ?> lag) {
            String measured = lag.get("capture_to_memory_median_seconds") == null ? "no memory in the last 30 days"
                    : "median " + duration((Double) lag.get("capture_to_memory_median_seconds")) + ", p95 "
                            + duration((Double) lag.get("capture_to_memory_p95_seconds")) + " over "
                            + n(lag.get("memories_measured")) + " of the newest memories of the last 30 days";
            out.printf("lag         capture → memory: %s; %s event(s) not graduated yet%s%n", measured,
                    n(lag.get("events_not_graduated")), lag.get("oldest_not_graduated") == null ? ""
                            : " (the oldest captured " + lag.get("oldest_not_graduated") + ")");
            List<Object> runs = (List<Object>) doc.get("last_runs");
            out.printf("last runs   %s%n", runs.isEmpty() ? "none" : runs.stream().map(r -> {
                Map<String, Object> run = (Map<String, Object>) r;
                return run.get("job") + " " + run.get("status") + " " + run.get("started_at")
                        + (run.get("seconds") == null ? ""
                                : String.format(Locale.ROOT, " (%.1f s)", run.get("seconds")));
            }).collect(Collectors.joining("\n            ")));
        }
        if (spool.get("capture_failing_since") != null) {
            out.printf(
                    "capture     FAILING since %s (%s): events are not being saved; it resumes by itself "
                            + "once the disk has room%n",
                    spool.get("capture_failing_since"), spool.get("capture_failing_reason"));
        }
        Map<String, Object> disk = (Map<String, Object>) doc.get("disk");
        out.printf("disk        %s in all: database %s, batch metadata %s, spool %s, logs %s, model cache %s%n",
                bytes(disk.get("total")), bytes(disk.get("database")), bytes(disk.get("batch_metadata")),
                bytes(disk.get("spool")), bytes(disk.get("logs")), bytes(disk.get("model_cache")));
    }

    private static String list(Map<String, Long> counts) {
        return counts.isEmpty() ? "none"
                : counts.entrySet()
                    .stream()
                    .map(e -> e.getKey() + " " + ConsoleProgress.number(e.getValue()))
                    .collect(Collectors.joining(", "));
    }

    private static String n(Object value) {
        return value instanceof Number number ? ConsoleProgress.number(number.longValue()) : String.valueOf(value);
    }

    private static String bytes(Object value) {
        long b = ((Number) value).longValue();
        String[] units = { "B", "KB", "MB", "GB", "TB" };
        double v = b;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? b + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String duration(Double seconds) {
        return seconds == null ? "?" : ConsoleProgress.seconds((long) (seconds * 1e9));
    }

    private static String time(LocalDateTime t) {
        return t == null ? null : MINUTE.format(t) + "Z";
    }

}
