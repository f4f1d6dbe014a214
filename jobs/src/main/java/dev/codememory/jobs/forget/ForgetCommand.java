package dev.codememory.jobs.forget;

import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.writers.forget.Forgetting;
import java.io.PrintStream;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code forget mem:xxxxxx | --session ID | --before DATE | --match TEXT [--dry-run]}:
 * the user's erasure on the command line, worded from what {@link ForgetService} answers
 * (what goes, the tombstone, the audit line are its business).
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
        ForgetService.Subject subject;
        try {
            subject = citation != null ? ForgetService.Subject.citation(citation)
                    : ForgetService.Subject.of(session != null ? Forgetting.session(session.strip()) : match != null
                            ? Forgetting.match(match) : Forgetting.before(parseBefore(before, invocation.zone())));
        }
        catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        ForgetService service = new ForgetService(invocation, verbose);
        ForgetService.Outcome outcome = dryRun ? service.preview(subject) : service.forget(subject);
        return switch (outcome.status()) {
            case DONE -> dryRun ? previewed(subject, outcome) : forgot(subject, outcome);
            case NO_MEMORY_YET -> {
                out.println("nothing to forget: no memory yet");
                yield ExitCode.OK;
            }
            case UNKNOWN_CITATION -> {
                err.println(outcome.problem());
                yield ExitCode.FAILED;
            }
            case SPOOL_NOT_INGESTED -> {
                err.println("forget: " + outcome.problem() + "; nothing was forgotten. Details: logs/jobs.log");
                yield ExitCode.FAILED;
            }
            case BUSY -> {
                err.println("forget: " + outcome.problem());
                yield ExitCode.BUSY;
            }
            case FAILED -> {
                err.println("forget failed: " + outcome.problem());
                yield ExitCode.FAILED;
            }
        };
    }

    private int previewed(ForgetService.Subject subject, ForgetService.Outcome outcome) {
        out.println("forget " + subject.label() + " would remove: " + ForgetService.describe(outcome.counts()));
        if (outcome.spoolLines() > 0) {
            out.println(ConsoleProgress.number(outcome.spoolLines())
                    + " spool line(s) not ingested yet would be ingested first and checked too");
        }
        out.println("dry run: nothing was changed");
        return ExitCode.OK;
    }

    private int forgot(ForgetService.Subject subject, ForgetService.Outcome outcome) {
        if (outcome.spoolLines() > 0) {
            out.println("ingested the " + ConsoleProgress.number(outcome.spoolLines())
                    + " spool line(s) waiting, so nothing there escapes");
        }
        if (outcome.counts().isEmpty()) {
            out.println("nothing to forget for " + subject.label());
            return ExitCode.OK;
        }
        ForgetService.Vectors vectors = outcome.vectors();
        out.println("forgot " + subject.label() + ": " + ForgetService.describe(outcome.counts()));
        out.println("vectors of " + ForgetService.plural(vectors.memories(), "memory", "memories") + " "
                + (vectors.queuedBecause() == null ? "removed"
                        : "queued for removal at the next graduate or reindex (" + vectors.queuedBecause() + ")")
                + (vectors.duckRows() > 0 ? " (" + ConsoleProgress.number(vectors.duckRows()) + " rows in DuckDB)"
                        : ""));
        out.println("a tombstone keeps re-imports and graduation from bringing it back; audit line in "
                + invocation.home().logs().resolve("forget.log"));
        return ExitCode.OK;
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
