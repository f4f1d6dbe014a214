package dev.codememory.jobs.forget;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.writers.forget.DuckDbForgetter;
import dev.codememory.writers.forget.Forgetting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.context.ApplicationContext;

/**
 * Forgetting as a use case, for every front end (the {@code forget} command, the viewer):
 * what a memory, a session, a moment or a phrase would take with it, and erasing it,
 * answered as data each front end words its own way. Its arguments are typed, never a
 * command line, so a phrase is a phrase whatever it starts with.
 * <p>
 * A memory goes with its vectors, evidence, citation and what was derived from it; a
 * session, a moment or a phrase also takes the raw events (the spool is ingested first,
 * so lines still waiting there are covered too). A tombstone of keys keeps a re-import or
 * a later graduation from bringing any of it back, and one line per run — what, how many,
 * never the text — goes to {@code logs/forget.log}. It holds the job lock and the
 * database like a job.
 */
public final class ForgetService {

    /** How a preview or a forgetting ended. */
    public enum Status {

        /** Previewed or forgotten (the counts may be all zero: nothing matched). */
        DONE,
        /** The home has no database yet: nothing to forget. */
        NO_MEMORY_YET,
        /** No memory has the citation (unknown, or forgotten already). */
        UNKNOWN_CITATION,
        /** Ingesting the spool first failed; nothing was forgotten. */
        SPOOL_NOT_INGESTED,
        /** A job or another process holds the database. */
        BUSY,
        /** The database or the home failed. */
        FAILED

    }

    /**
     * What to forget: a memory by its citation, or a session, a moment, a phrase.
     *
     * @param citation {@code mem:xxxxxx}, or null
     * @param what the session, moment or phrase, or null
     */
    public record Subject(String citation, Forgetting what) {

        public Subject {
            if ((citation == null) == (what == null)) {
                throw new IllegalArgumentException(
                        "forget needs exactly one of: a citation, a session, a moment, " + "a phrase");
            }
            if (citation != null && CitationQueries.code(citation).isEmpty()) {
                throw new IllegalArgumentException("not a citation: " + citation);
            }
            if (what != null && what.kind() == Forgetting.Kind.MEMORY) {
                throw new IllegalArgumentException("a memory is forgotten by its citation");
            }
        }

        /** The memory {@code citation} names. */
        public static Subject citation(String citation) {
            return new Subject(Objects.requireNonNull(citation, "citation").strip(), null);
        }

        /**
         * A session, everything before a moment, or everything that mentions a phrase.
         */
        public static Subject of(Forgetting what) {
            return new Subject(null, Objects.requireNonNull(what, "what"));
        }

        /** Whether the raw events (and spool lines) go too, not only memories. */
        public boolean erasesEvents() {
            return what != null && what.erasesEvents();
        }

        /** How a front end names it: never a phrase's text. */
        public String label() {
            if (citation != null) {
                return citation;
            }
            return switch (what.kind()) {
                case SESSION -> "session " + what.value();
                case BEFORE -> "everything before " + what.before() + "Z";
                case MATCH -> "everything that mentions the phrase";
                case MEMORY -> throw new IllegalStateException("a memory is forgotten by its citation");
            };
        }

    }

    /**
     * What became of the vectors of the memories forgotten.
     *
     * @param memories how many memories had vectors to remove
     * @param queuedBecause null when the vector store removed them; else why they wait
     * for the next graduate or reindex
     * @param duckRows vector rows removed in DuckDB
     */
    public record Vectors(int memories, String queuedBecause, long duckRows) {
    }

    /**
     * A preview's or a forgetting's answer.
     *
     * @param status how it ended; only {@link Status#DONE} has counts
     * @param counts what would go (preview) or went (forget); null unless done
     * @param spoolLines spool lines waiting (preview) or ingested first (forget)
     * @param vectors a forgetting's vectors; null for a preview or unless done
     * @param problem what failed, for the statuses that are failures; else null
     */
    public record Outcome(Status status, DuckDbForgetter.Counts counts, long spoolLines, Vectors vectors,
            String problem) {

        static Outcome failed(Status status, String problem) {
            return new Outcome(status, null, 0, null, problem);
        }

    }

    private final Invocation invocation;

    private final boolean verbose;

    /**
     * @param verbose whether the framework's log lines go to the console too (a command
     * in its own process; nothing changes inside serve)
     */
    public ForgetService(Invocation invocation, boolean verbose) {
        this.invocation = invocation;
        this.verbose = verbose;
    }

    /** What forgetting {@code subject} would remove; nothing changes. */
    public Outcome preview(Subject subject) {
        return run(subject, true);
    }

    /**
     * Forgets {@code subject} for good (after ingesting the spool, when events go too),
     * with its audit line.
     */
    public Outcome forget(Subject subject) {
        return run(subject, false);
    }

    private Outcome run(Subject subject, boolean dryRun) {
        if (!invocation.home().database().toFile().exists()) {
            return new Outcome(Status.NO_MEMORY_YET, null, 0, null, null);
        }
        Outcome[] outcome = new Outcome[1];
        int exit = invocation.withJobs(verbose, context -> {
            outcome[0] = run(context, subject, dryRun);
            return outcome[0].status() == Status.DONE ? 0 : 1;
        });
        return outcome[0] != null ? outcome[0]
                : Outcome.failed(Status.FAILED, "the jobs' application did not start (exit " + exit + ")");
    }

    private Outcome run(ApplicationContext context, Subject subject, boolean dryRun) {
        CodeMemoryHome home = context.getBean(CodeMemoryHome.class);
        JobDatabase database = context.getBean(JobDatabase.class);
        try {
            long waiting = spoolLines(home);
            long ingested = 0;
            if (!dryRun && subject.erasesEvents() && waiting > 0) {
                // lines still in the spool may hold what is to be forgotten: load them
                // first, then erase
                JobExecution ingest = context.getBean(JobRunner.class).run("ingest");
                if (ingest.getStatus() != BatchStatus.COMPLETED) {
                    return Outcome.failed(Status.SPOOL_NOT_INGESTED,
                            "ingesting the spool first failed (" + ingest.getStatus() + ")");
                }
                ingested = waiting;
            }
            try (ProcessLock ignored = ProcessLock.acquire(home.jobLock())) {
                database.open();
                try {
                    Forgetting what = subject.what();
                    if (what == null) {
                        Optional<CitedMemory> memory;
                        try (Connection c = database.connection()) {
                            memory = CitationQueries.memory(c, subject.citation());
                        }
                        if (memory.isEmpty()) {
                            return Outcome.failed(Status.UNKNOWN_CITATION, "unknown citation: " + subject.citation());
                        }
                        what = Forgetting.memory(memory.get().memoryId());
                    }
                    if (dryRun) {
                        DuckDbForgetter.Counts counts = new DuckDbForgetter(database.connections()).preview(what)
                            .counts();
                        return new Outcome(Status.DONE, counts, subject.erasesEvents() ? waiting : 0, null, null);
                    }
                    return erase(context, home, database, what, ingested);
                }
                finally {
                    database.close();
                    home.restrictPermissions();
                }
            }
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            return Outcome.failed(Status.BUSY, e.getMessage());
        }
        catch (DatabaseException | SQLException | IOException e) {
            return Outcome.failed(Status.FAILED, e.getMessage());
        }
    }

    private Outcome erase(ApplicationContext context, CodeMemoryHome home, JobDatabase database, Forgetting what,
            long ingested) throws IOException {
        String forgetId = "fg_" + Instant.now().toEpochMilli() + "_" + ProcessHandle.current().pid();
        DuckDbForgetter forgetter = new DuckDbForgetter(database.connections());
        DuckDbForgetter.Outcome outcome = forgetter.forget(what, forgetId);
        List<String> ids = outcome.memoryIds();
        EmbeddingVersion version = context.getBean(EmbeddingService.class).version();
        String queuedBecause = null;
        String storeVersion = null;
        try (VectorStore store = context.getBean(VectorComponents.class).vectorStore(database.connections())) {
            if (!ids.isEmpty()) {
                store.ensureReady();
                store.delete(ids);
            }
            storeVersion = version.id();
        }
        catch (VectorStoreException | IllegalArgumentException e) {
            queuedBecause = e.getMessage();
        }
        long duckRows = forgetter.dropVectors(ids, storeVersion);
        audit(home, forgetId, what, outcome.counts(), ids.size());
        return new Outcome(Status.DONE, outcome.counts(), ingested, new Vectors(ids.size(), queuedBecause, duckRows),
                null);
    }

    /** The counts in words: "1 event, 0 sessions, 2 memories (1 verified), …". */
    public static String describe(DuckDbForgetter.Counts c) {
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

    /** {@code n} and the noun, singular for one. */
    public static String plural(long n, String one, String many) {
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
        Files.writeString(log, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
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

}
