package dev.codememory.jobs.search;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.command.Commands;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.processors.turns.SessionAssembler;
import dev.codememory.processors.turns.TranscriptSource;
import dev.codememory.processors.workingset.EventCitation;
import dev.codememory.readers.workingset.WorkingSetQueries;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.context.SessionLease;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code show [--json] CITATION} resolves a citation ({@code mem:xxxxxx},
 * {@code [mem:xxxxxx]} or {@code xxxxxx}) to its memory and prints the memory, its
 * evidence spans with the quoted source text, and its source events (marked {@code >})
 * with the events just before and after each in the same session. Like {@code query} it
 * runs on DuckDB alone (no Spring start-up). Exit 0 when found, 1 when the citation is
 * unknown, 2 on bad usage, 3 when a job holds the database. What it prints is the user's
 * own text, on stdout only; nothing of it is logged. It may be read back to Claude (the
 * plugin's {@code memory-show} command), so everything but the user's own words passes
 * the {@link ContextGate}, and each quote says whose words it holds.
 */
@Command(name = "show", header = "a citation's memory, its evidence and the events it came from; or an event",
        mixinStandardHelpOptions = true,
        description = "Resolves a citation (mem:xxxxxx, [mem:xxxxxx] or xxxxxx) to its memory: kind, status, project, "
                + "session, time, title and body; its evidence spans with the quoted source text; its source events "
                + "(marked >) with the events around each. An event citation (ev:xxxxxxxx, cited by a working set) "
                + "prints the event: a prompt, Claude's reply, or a tool call's input and whether it failed, never its "
                + "output.",
        footer = { "", "Exit codes: 0 found, 1 unknown citation or no memory yet, 2 bad usage, 3 a job holds the "
                + "database." })
public final class ShowCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_LOCAL_DATE_TIME;

    /** The fields of a shown event, in the order printed, and their labels. */
    private static final Map<String, String> EVENT_LABELS = eventLabels();

    @Option(names = "--json", description = "print the same as one JSON object")
    boolean json;

    @Parameters(paramLabel = "CITATION", description = "mem:xxxxxx or ev:xxxxxxxx")
    String citation;

    @Spec
    CommandSpec spec;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public ShowCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /**
     * The command for {@code invocation}: on the database opened for it, or on serve's.
     */
    public ShowCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    /** {@code args} may start with the command's name. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return Commands.execute(new ShowCommand(out, err), Commands.withoutName(args, "show"), out, err);
    }

    static int run(String[] args, CodeMemoryHome home, PrintStream out, PrintStream err) {
        return Commands.execute(new ShowCommand(out, err, Invocation.local(home)), Commands.withoutName(args, "show"),
                out, err);
    }

    @Override
    public Integer call() {
        invocation.logToStderr();
        CodeMemoryHome home = invocation.home();
        Optional<String> eventPrefix = EventCitation.idPrefix(citation);
        if (eventPrefix.isEmpty() && CitationQueries.code(citation).isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "not a citation: " + citation);
        }
        if (!home.database().toFile().exists()) {
            err.println("no memory yet: run `java -jar jobs.jar --job=graduate` first");
            return ExitCode.FAILED;
        }
        try (SessionLease lease = invocation.read()) {
            if (eventPrefix.isPresent()) {
                return showEvents(lease.session(), eventPrefix.get());
            }
            Optional<ShownMemory> shown = ShownMemory.load(lease.session(), citation);
            if (shown.isEmpty()) {
                err.println("unknown citation: " + citation);
                return ExitCode.FAILED;
            }
            if (json) {
                out.println(Json.write(shown.get().toJson()));
            }
            else {
                out.print(shown.get().text());
            }
            return 0;
        }
        catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return ExitCode.BUSY;
        }
        catch (DatabaseException e) {
            err.println("show failed: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    /**
     * {@code show ev:xxxxxxxx}: the events whose id the citation names (one, unless two
     * share the code), each with its session, time and type; a prompt as the user typed
     * it, Claude's reply (a Stop's {@code last_assistant_message}, through the gate), a
     * tool call's tool, its input (through the gate) and whether it failed — never the
     * tool's output.
     */
    private int showEvents(DuckDb.Session session, String idPrefix) {
        List<WorkingSetQueries.CitedEvent> events;
        try (Connection c = session.connection()) {
            events = WorkingSetQueries.eventsByPrefix(c, idPrefix);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read " + citation + ": " + e.getMessage(), e);
        }
        if (events.isEmpty()) {
            err.println("unknown citation: " + citation);
            return ExitCode.FAILED;
        }
        List<Map<String, Object>> shown = events.stream().map(ShowCommand::eventJson).toList();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("citation", EventCitation.of(events.get(0).eventId()));
            doc.put("events", shown);
            out.println(Json.write(doc));
            return 0;
        }
        for (Map<String, Object> e : shown) {
            out.printf("[%s] event %s%n", EventCitation.of((String) e.get("event_id")), e.get("event_type"));
            EVENT_LABELS.forEach((key, label) -> {
                if (e.get(key) != null) {
                    out.printf("%-10s%s%n", label + ":", e.get(key));
                }
            });
        }
        return 0;
    }

    private static Map<String, String> eventLabels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("event_id", "id");
        labels.put("project", "project");
        labels.put("session_id", "session");
        labels.put("ts", "time");
        labels.put("prompt", "prompt");
        labels.put("reply", "Claude");
        labels.put("tool", "tool");
        labels.put("input", "input");
        labels.put("failed", "failed");
        return labels;
    }

    private static Map<String, Object> eventJson(WorkingSetQueries.CitedEvent e) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("event_id", e.eventId());
        doc.put("event_type", e.eventType());
        doc.put("project", e.project());
        doc.put("session_id", e.sessionId());
        doc.put("ts", time(e.ts()));
        AssembledSession one = new SessionAssembler(TranscriptSource.NONE).assemble(List
            .of(new StoredEvent(e.eventId(), 0, e.ts(), e.eventType(), e.sessionId(), e.project(), e.payloadJson())));
        one.turns()
            .stream()
            .filter(t -> e.eventId().equals(t.promptEventId()) && !t.promptText().isEmpty())
            .findFirst()
            .ifPresent(t -> doc.put("prompt", t.promptText()));
        one.turns()
            .stream()
            .filter(t -> e.eventId().equals(t.replyEventId()) && t.replyText() != null && !t.replyText().isEmpty())
            .findFirst()
            .ifPresent(t -> doc.put("reply", ContextGate.pass(t.replyText()).text()));
        one.observations().stream().findFirst().ifPresent(o -> {
            doc.put("tool", o.tool());
            doc.put("input", o.inputText() == null ? null : ContextGate.pass(o.inputText()).text());
            doc.put("failed", o.failed());
        });
        return doc;
    }

    private static String time(LocalDateTime t) {
        return t == null ? null : TIME.format(t) + "Z";
    }

}
