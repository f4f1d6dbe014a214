package dev.codememory.jobs.forget;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.runtime.CodeMemoryProperties;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.jobs.vector.VectorComponents;
import dev.codememory.readers.citation.CitationQueries;
import dev.codememory.readers.citation.CitedMemory;
import dev.codememory.writers.forget.DuckDbForgetter;
import dev.codememory.writers.forget.Forgetting;
import dev.codememory.writers.spool.Spool;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.context.ApplicationContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code forget mem:xxxxxx | --session ID | --before DATE | --match TEXT [--dry-run]}:
 * the user's erasure. A memory goes with its vectors, evidence, citation and what was
 * derived from it; a session, a period or a phrase also takes the raw events (the spool
 * is ingested first, so lines still waiting there are covered too). A tombstone of keys
 * keeps a re-import or a later graduation from bringing any of it back, and one line per
 * run — what, how many, never the text — goes to {@code logs/forget.log}. It holds the
 * job lock and the database like a job.
 */
@Command(name = "forget", header = "erase a memory, a session, everything before a date or mentioning a phrase",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = { "Erases a memory, a session, everything before a date, or everything that mentions a phrase: "
                + "the memories (with their vectors in DuckDB or Milvus, evidence, citations and tasks) and, for a "
                + "session, date or phrase, the raw events and spool lines they came from.",
                "Nothing forgotten comes back: re-importing the same transcripts or re-running graduation skips it.",
                "An audit line (what and how many, never the text) goes to logs/forget.log." },
        footer = { "", "Exit codes: 0 forgotten (or nothing matched), 1 unknown citation or failed, 2 bad usage, "
                + "3 a job or another process holds the database." })
public final class ForgetCommand implements Callable<Integer> {

    @Parameters(paramLabel = "mem:xxxxxx", arity = "0..1", description = "the memory to forget (its citation)")
    String citation;

    @Option(names = "--session", paramLabel = "ID", description = "forget a whole session")
    String session;

    @Option(names = "--before", paramLabel = "DATE", description = "forget everything before DATE: 2026-01-31 "
            + "(local midnight), 2026-01-31T12:00 (local time) or 2026-01-31T12:00:00Z")
    String before;

    @Option(names = "--match", paramLabel = "TEXT",
            description = "forget every event and memory whose text contains " + "TEXT (case-insensitive)")
    String match;

    @Option(names = "--dry-run", description = "say what would be forgotten, change nothing")
    boolean dryRun;

    @Option(names = "--verbose", description = "also show the framework's log lines")
    boolean verbose;

    @Spec
    CommandSpec spec;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public ForgetCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public ForgetCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        int given = (citation != null ? 1 : 0) + (session != null ? 1 : 0) + (before != null ? 1 : 0)
                + (match != null ? 1 : 0);
        if (given != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "forget needs exactly one of: mem:xxxxxx, --session ID, --before DATE, --match TEXT");
        }
        Forgetting what;
        try {
            what = citation != null ? null : session != null ? Forgetting.session(session.strip()) : match != null
                    ? Forgetting.match(match) : Forgetting.before(parseBefore(before, invocation.zone()));
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (citation != null && CitationQueries.code(citation).isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "not a citation: " + citation);
        }
        CodeMemoryHome home = invocation.home();
        if (!home.database().toFile().exists()) {
            out.println("nothing to forget: no memory yet");
            return 0;
        }
        Forgetting request = what;
        return invocation.withJobs(verbose, context -> forget(context, request));
    }

    private int forget(ApplicationContext context, Forgetting requested) {
        CodeMemoryHome home = context.getBean(CodeMemoryHome.class);
        JobDatabase database = context.getBean(JobDatabase.class);
        Forgetting what = requested;
        try {
            long waiting = spoolLines(home);
            if (!dryRun && what != null && what.erasesEvents() && waiting > 0) {
                // lines still in the spool may hold what is to be forgotten: load them
                // first, then erase
                JobExecution ingest = context.getBean(JobRunner.class).run("ingest");
                if (ingest.getStatus() != BatchStatus.COMPLETED) {
                    err.println("forget: ingesting the spool first failed (" + ingest.getStatus()
                            + "); nothing was forgotten. Details: logs/jobs.log");
                    return ExitCode.FAILED;
                }
                out.println("ingested the " + ConsoleProgress.number(waiting)
                        + " spool line(s) waiting, so nothing there escapes");
            }
            try (ProcessLock ignored = ProcessLock.acquire(home.jobLock())) {
                database.open();
                try {
                    if (what == null) {
                        Optional<CitedMemory> memory;
                        try (Connection c = database.connection()) {
                            memory = CitationQueries.memory(c, citation);
                        }
                        if (memory.isEmpty()) {
                            err.println("unknown citation: " + citation);
                            return ExitCode.FAILED;
                        }
                        what = Forgetting.memory(memory.get().memoryId());
                    }
                    return dryRun ? preview(database, what, waiting) : erase(context, home, database, what);
                }
                finally {
                    database.close();
                    home.restrictPermissions();
                }
            }
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            err.println("forget: " + e.getMessage());
            return ExitCode.BUSY;
        }
        catch (DatabaseException | SQLException | IOException e) {
            err.println("forget failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    private int preview(JobDatabase database, Forgetting what, long waiting) {
        DuckDbForgetter.Outcome outcome = new DuckDbForgetter(database.connections()).preview(what);
        out.println("forget " + label(what) + " would remove: " + describe(outcome.counts()));
        if (what.erasesEvents() && waiting > 0) {
            out.println(ConsoleProgress.number(waiting) + " spool line(s) not ingested yet would be ingested first"
                    + " and checked too");
        }
        out.println("dry run: nothing was changed");
        return 0;
    }

    private int erase(ApplicationContext context, CodeMemoryHome home, JobDatabase database, Forgetting what)
            throws IOException {
        String forgetId = "fg_" + Instant.now().toEpochMilli() + "_" + ProcessHandle.current().pid();
        DuckDbForgetter forgetter = new DuckDbForgetter(database.connections());
        DuckDbForgetter.Outcome outcome = forgetter.forget(what, forgetId);
        List<String> ids = outcome.memoryIds();
        EmbeddingVersion version = context.getBean(EmbeddingService.class).version();
        String vectors;
        String storeVersion = null;
        try (VectorStore store = context.getBean(VectorComponents.class).vectorStore(database.connections())) {
            if (!ids.isEmpty()) {
                store.ensureReady();
                store.delete(ids);
            }
            storeVersion = version.id();
            vectors = "removed";
        }
        catch (VectorStoreException | IllegalArgumentException e) {
            vectors = "queued for removal at the next graduate or reindex (" + e.getMessage() + ")";
        }
        long duckRows = forgetter.dropVectors(ids, storeVersion);
        audit(home, forgetId, what, outcome.counts(), ids.size());
        if (outcome.counts().isEmpty()) {
            out.println("nothing to forget for " + label(what));
            return 0;
        }
        out.println("forgot " + label(what) + ": " + describe(outcome.counts()));
        out.println("vectors of " + plural(ids.size(), "memory", "memories") + " " + vectors
                + (duckRows > 0 ? " (" + ConsoleProgress.number(duckRows) + " rows in DuckDB)" : ""));
        out.println("a tombstone keeps re-imports and graduation from bringing it back; audit line in "
                + home.logs().resolve("forget.log"));
        return 0;
    }

    private String label(Forgetting what) {
        return switch (what.kind()) {
            case MEMORY -> citation;
            case SESSION -> "session " + what.value();
            case BEFORE -> "everything before " + what.before() + "Z";
            case MATCH -> "everything that mentions the phrase";
        };
    }

    static String describe(DuckDbForgetter.Counts c) {
        List<String> parts = new ArrayList<>();
        parts.add(plural(c.events(), "event", "events"));
        parts.add(plural(c.sessions(), "session", "sessions"));
        parts.add(plural(c.memories(), "memory", "memories") + " (" + ConsoleProgress.number(c.verifiedMemories())
                + " verified)");
        parts.add(plural(c.candidates(), "candidate", "candidates"));
        parts.add(plural(c.turns(), "turn", "turns"));
        parts.add(plural(c.observations(), "tool observation", "tool observations"));
        parts.add(plural(c.tasks(), "task", "tasks"));
        String described = String.join(", ", parts);
        return c.summariesToCompose() == 0 ? described
                : described + "; " + plural(c.summariesToCompose(), "session summary", "session summaries")
                        + " to compose again without it";
    }

    private static String plural(long n, String one, String many) {
        return ConsoleProgress.number(n) + " " + (n == 1 ? one : many);
    }

    /**
     * One line in {@code logs/forget.log}: time, run id, what (never a phrase), how many
     * of each.
     */
    static void audit(CodeMemoryHome home, String forgetId, Forgetting what, DuckDbForgetter.Counts c, int vectors)
            throws IOException {
        CodeMemoryHome.createPrivateDirectory(home.logs());
        Path log = home.logs().resolve("forget.log");
        CodeMemoryHome.createPrivateFile(log);
        String line = Instant.now() + " " + forgetId + " forget " + what.describe() + ": events=" + c.events()
                + " sessions=" + c.sessions() + " memories=" + c.memories() + " candidates=" + c.candidates()
                + " turns=" + c.turns() + " observations=" + c.observations() + " task_events=" + c.taskEvents()
                + " tasks=" + c.tasks() + " summaries_to_compose=" + c.summariesToCompose() + " vectors=" + vectors
                + "\n";
        Files.writeString(log, line, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    }

    /**
     * Lines waiting in the spool (the current file and sealed files not ingested yet).
     */
    public static long spoolLines(CodeMemoryHome home) throws IOException {
        Spool spool = Spool.forHome(home);
        List<Path> files = new ArrayList<>(spool.sealedFiles());
        if (Files.exists(spool.currentFile())) {
            files.add(spool.currentFile());
        }
        long lines = 0;
        for (Path f : files) {
            try (Stream<String> s = Files.lines(f, StandardCharsets.ISO_8859_1)) {
                lines += s.count();
            }
        }
        return lines;
    }

    /**
     * DATE as UTC: a date is the start of that day in {@code zone}, a local date-time is
     * in {@code zone}, a date-time with an offset or 'Z' is taken as it says.
     */
    static LocalDateTime parseBefore(String text, ZoneId zone) {
        String t = text.strip();
        try {
            return OffsetDateTime.parse(t).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            // not with an offset
        }
        try {
            return LocalDateTime.parse(t).atZone(zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            // not a local date-time
        }
        try {
            return LocalDate.parse(t).atStartOfDay(zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "--before needs a date like 2026-01-31 or 2026-01-31T12:00, was " + text);
        }
    }

}
