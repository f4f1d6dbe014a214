package dev.codememory.jobs.endless;

import dev.codememory.config.home.EndlessMode;
import dev.codememory.config.json.Json;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.report.StoreReader;
import dev.codememory.jobs.runtime.JobCommandRunner;
import dev.codememory.processors.workingset.Continuation;
import dev.codememory.processors.workingset.WorkingSet;
import dev.codememory.readers.continuity.ContinuityQueries;
import dev.codememory.readers.endless.TopicReportQueries.TopicCounts;
import dev.codememory.readers.endless.TopicReportQueries.TopicLine;
import dev.codememory.readers.endless.TopicReportQueries;
import dev.codememory.retrieval.context.SessionStartContextService;
import dev.codememory.retrieval.context.SpooledEvents;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code endless}: endless mode as the reference design names it. The working set (what a
 * session is doing now, read from its raw events), the continuity score between
 * consecutive sessions, and topic memories (work that spans sessions) are always kept;
 * endless mode decides what a fresh session is shown first: the project's active topics
 * and the last session's working set instead of the last session's summary. The working
 * set after a compaction, {@code /clear} or resume is shown in both modes.
 */
@Command(name = "endless", header = "endless mode: the working set, continuity and topic memories",
        mixinStandardHelpOptions = true,
        description = "Endless mode: at a session's start, the project's active topics (work that spans sessions) and "
                + "the last session's working set take the place of the last session's summary. The working set after "
                + "a compaction, /clear or resume is shown in both modes.",
        footer = { "", "Exit codes: 0 done, 1 failed, 2 bad usage, 3 a job holds the database." })
public final class EndlessCommand {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

    /** Scored sessions the status reports. */
    static final int CONTINUITY_SESSIONS = 3;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public EndlessCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Command(name = "status", description = "The mode, the working set's size, continuity, topics and when they were "
            + "last worked out, for the project of the current directory (or --project).")
    int status(@Option(names = "--project", paramLabel = "DIR") String dir, @Option(names = "--json") boolean json) {
        String project = StoreReader.project(invocation, dir);
        boolean enabled = EndlessMode.enabled(invocation.home());
        return StoreReader.read(invocation, out, err, "endless mode: " + mode(enabled) + "\nno memory yet", c -> {
            Map<String, Object> doc = status(c, project, enabled);
            if (json) {
                out.println(Json.write(doc));
            }
            else {
                printStatus(doc);
            }
            return ExitCode.OK;
        });
    }

    @Command(name = "enable", description = "Endless mode on: a fresh session opens with the project's active topics "
            + "and the last session's working set.")
    int enable() {
        return set(true);
    }

    @Command(name = "disable", description = "Endless mode off: a fresh session opens with the last session's summary "
            + "(the working set after a compaction, /clear or resume stays).")
    int disable() {
        return set(false);
    }

    @Command(name = "working-set", description = "What the project's newest session of the last 24 hours is doing, "
            + "as a session start shows it: goal, to-do list, files, commands, decisions, each citing its event.")
    int workingSet(@Option(names = "--project", paramLabel = "DIR") String dir) {
        String project = StoreReader.project(invocation, dir);
        return StoreReader.read(invocation, out, err, "no memory yet", c -> {
            WorkingSet set = SessionStartContextService.latestWorkingSet(c, project,
                    SpooledEvents.of(invocation.home()));
            if (set == null || set.isEmpty()) {
                out.println("no session of " + project + " in the last 24 hours");
                return ExitCode.OK;
            }
            out.println(SessionStartContextService.shown(set));
            return ExitCode.OK;
        });
    }

    @Command(name = "memories", description = "The project's topic memories, most recently continued first; with -q, "
            + "those that share words with TEXT, most shared first.")
    int memories(@Option(names = { "-q", "--query" }, paramLabel = "TEXT") String query,
            @Option(names = "--project", paramLabel = "DIR") String dir, @Option(names = "--json") boolean json) {
        String project = StoreReader.project(invocation, dir);
        return StoreReader.read(invocation, out, err, "no memory yet", c -> {
            List<TopicLine> topics = matching(TopicReportQueries.active(c, project), query);
            if (topics.isEmpty()) {
                out.println(query == null ? "no topics of " + project + " yet (graduation writes them once work "
                        + "spans sessions; `endless consolidate` runs it now)" : "no topic matches");
                return ExitCode.OK;
            }
            for (TopicLine t : topics) {
                if (json) {
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("memory_id", t.memoryId());
                    doc.put("citation", t.citation());
                    doc.put("title", t.title());
                    doc.put("body", t.body());
                    doc.put("updated", t.updated().toString());
                    out.println(Json.write(doc));
                }
                else {
                    out.println((t.citation() == null ? "" : "[" + t.citation() + "] ") + t.title());
                    t.body().lines().forEach(l -> out.println("    " + l));
                }
            }
            return ExitCode.OK;
        });
    }

    @Command(name = "consolidate", description = "Graduates what is pending now, topics included (in serve when it "
            + "runs), then counts the project's topics.")
    int consolidate(@Option(names = "--project", paramLabel = "DIR") String dir) {
        String project = StoreReader.project(invocation, dir);
        int exit = invocation.withJobs(false,
                context -> context.getBean(JobCommandRunner.class).runJob("graduate", out, err, false));
        if (exit != ExitCode.OK) {
            return exit;
        }
        return StoreReader.read(invocation, out, err, "no memory yet", c -> {
            TopicCounts counts = TopicReportQueries.counts(c, project);
            out.println(project + ": " + counts.active() + " active topic(s), " + counts.superseded() + " superseded");
            return ExitCode.OK;
        });
    }

    private int set(boolean enabled) {
        EndlessMode.set(invocation.home(), enabled);
        out.println("endless mode: " + mode(enabled));
        return ExitCode.OK;
    }

    static Map<String, Object> status(Connection c, String project, boolean enabled) throws SQLException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("mode", mode(enabled));
        doc.put("project", project);
        WorkingSet set = SessionStartContextService.latestWorkingSet(c, project, SpooledEvents.NONE);
        Map<String, Object> working = new LinkedHashMap<>();
        if (set != null && !set.isEmpty()) {
            working.put("session_id", set.sessionId());
            working.put("goal", set.goal() != null);
            working.put("todos", set.todos().size());
            working.put("open_todos", set.todos().stream().filter(WorkingSet.Todo::open).count());
            working.put("files_edited", set.files().size());
            working.put("commands", set.commands().size());
            working.put("failing_commands", set.commands().stream().filter(WorkingSet.Command::failed).count());
            working.put("decisions", set.decisions().size());
            working.put("files_read", set.filesRead().size());
        }
        doc.put("working_set", working);
        List<ContinuityQueries.Score> scores = ContinuityQueries.recent(c, project, CONTINUITY_SESSIONS);
        OptionalDouble mean = ContinuityQueries.mean(scores);
        Map<String, Object> continuity = new LinkedHashMap<>();
        if (!scores.isEmpty()) {
            ContinuityQueries.Score last = scores.get(0);
            continuity.put("last_session", last.sessionId());
            continuity.put("previous_session", last.previousSessionId());
            continuity.put("last", last.score());
            continuity.put("shared_items", last.sharedItems());
            continuity.put("items", last.ownItems());
            continuity.put("previous_items", last.previousItems());
        }
        continuity.put("mean", mean.isPresent() ? mean.getAsDouble() : null);
        continuity.put("sessions", scores.size());
        continuity.put("working_set_at_start", Continuation.of(mean).name().toLowerCase(Locale.ROOT));
        doc.put("continuity", continuity);
        TopicCounts counts = TopicReportQueries.counts(c, project);
        Map<String, Object> topics = new LinkedHashMap<>();
        topics.put("active", counts.active());
        topics.put("superseded", counts.superseded());
        topics.put("last_consolidation",
                counts.lastConsolidation() == null ? null : counts.lastConsolidation().toString());
        doc.put("topics", topics);
        return doc;
    }

    @SuppressWarnings("unchecked")
    private void printStatus(Map<String, Object> doc) {
        out.println("endless mode: " + doc.get("mode"));
        out.println("project: " + doc.get("project"));
        Map<String, Object> w = (Map<String, Object>) doc.get("working_set");
        out.println(w.isEmpty() ? "working set: no session in the last 24 hours" : "working set: session "
                + w.get("session_id") + ": " + (Boolean.TRUE.equals(w.get("goal")) ? "a goal, " : "no goal, ")
                + w.get("todos") + " to-do item(s) (" + w.get("open_todos") + " open), " + w.get("files_edited")
                + " file(s) edited, " + w.get("commands") + " command(s) (" + w.get("failing_commands") + " failing), "
                + w.get("decisions") + " decision(s), " + w.get("files_read") + " file(s) read");
        Map<String, Object> k = (Map<String, Object>) doc.get("continuity");
        out.println(k.containsKey("last")
                ? "continuity: " + score(k.get("last")) + " (session " + k.get("last_session") + ", " + k.get("items")
                        + " work item(s), shares " + k.get("shared_items") + " with " + k.get("previous_session") + ", "
                        + k.get("previous_items") + "); mean of the last " + k.get("sessions") + ": "
                        + score(k.get("mean")) + " → " + k.get("working_set_at_start") + " working set at start"
                : "continuity: no two sessions scored yet → full working set at start");
        Map<String, Object> t = (Map<String, Object>) doc.get("topics");
        out.println("topics: " + t.get("active") + " active, " + t.get("superseded") + " superseded; last worked out: "
                + (t.get("last_consolidation") == null ? "never"
                        : MINUTE.format(LocalDateTime.parse((String) t.get("last_consolidation"))) + " UTC"));
    }

    private static String score(Object value) {
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.2f", (Double) value);
    }

    private static String mode(boolean enabled) {
        return enabled ? "enabled" : "disabled";
    }

    /**
     * Topics sharing words (of 3 or more letters) with the query, most shared first, the
     * most recently continued first among equals; all of them without a query.
     */
    static List<TopicLine> matching(List<TopicLine> topics, String query) {
        if (query == null || query.isBlank()) {
            return topics;
        }
        Set<String> wanted = words(query);
        List<Map.Entry<TopicLine, Long>> scored = new ArrayList<>();
        for (TopicLine t : topics) {
            Set<String> has = words(t.title() + "\n" + t.body());
            long shared = wanted.stream().filter(has::contains).count();
            if (shared > 0) {
                scored.add(Map.entry(t, shared));
            }
        }
        scored.sort(Comparator.comparing((Map.Entry<TopicLine, Long> e) -> -e.getValue()));
        return scored.stream().map(Map.Entry::getKey).toList();
    }

    private static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}_.]+")) {
            if (w.length() >= 3) {
                out.add(w);
            }
        }
        return out;
    }

}
