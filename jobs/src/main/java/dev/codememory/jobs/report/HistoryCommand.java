package dev.codememory.jobs.report;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.readers.report.ReportQueries;
import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code history}: a project's sessions, newest first, each with the summary graduation
 * wrote for it.
 */
@Command(name = "history", header = "a project's sessions and their summaries, newest first",
        mixinStandardHelpOptions = true, sortOptions = false,
        description = "A project's sessions, newest first: when, how many prompts and tool calls, the branch, and the "
                + "session's summary with its citation (once graduated).",
        footer = { "", "Exit codes: 0 printed, 1 failed, 3 a job holds the database." })
public final class HistoryCommand implements Callable<Integer> {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    @Option(names = "--project", paramLabel = "DIR", description = "the project (default: the current directory's)")
    String project;

    @Option(names = "--all-projects", description = "every project")
    boolean allProjects;

    @Option(names = "--limit", paramLabel = "N", description = "at most N sessions (default: ${DEFAULT-VALUE})")
    int limit = 20;

    @Option(names = "--json", description = "one JSON object per session, one per line")
    boolean json;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public HistoryCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public HistoryCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() {
        String wanted = allProjects ? null : StoreReader.project(invocation, project);
        return StoreReader.read(invocation, out, err, "no memory yet", c -> {
            List<ReportQueries.SessionLine> sessions = ReportQueries.sessions(c, wanted, Math.max(1, limit));
            if (sessions.isEmpty()) {
                out.println("no sessions " + (wanted == null ? "yet" : "of " + wanted + " yet")
                        + " (graduation assembles them; see `stats`)");
                return 0;
            }
            for (ReportQueries.SessionLine s : sessions) {
                if (json) {
                    out.println(Json.write(toJson(s)));
                }
                else {
                    print(s, wanted == null, out);
                }
            }
            return 0;
        });
    }

    static void print(ReportQueries.SessionLine s, boolean withProject, PrintStream out) {
        out.printf("%s → %s  session %s  %d prompt(s), %d tool call(s)%s%s%n", time(s.startedAt()),
                s.endedAt() == null ? "(open)" : time(s.endedAt()), s.sessionId(), s.prompts(), s.tools(),
                s.branch() == null ? "" : ", branch " + s.branch(), withProject ? ", " + s.project() : "");
        if (s.summaryBody() != null) {
            out.println("  [" + s.summaryCitation() + "] " + s.summaryTitle());
            for (String line : s.summaryBody().strip().split("\n")) {
                if (!line.isBlank() && !line.strip().equals(s.summaryTitle().strip())) {
                    out.println("    " + line.strip());
                }
            }
        }
        else {
            out.println("  (no summary yet)");
        }
    }

    static Map<String, Object> toJson(ReportQueries.SessionLine s) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("session_id", s.sessionId());
        doc.put("project", s.project());
        doc.put("started_at", iso(s.startedAt()));
        doc.put("ended_at", iso(s.endedAt()));
        doc.put("prompts", s.prompts());
        doc.put("tool_calls", s.tools());
        doc.put("branch", s.branch());
        Map<String, Object> summary = null;
        if (s.summaryId() != null) {
            summary = new LinkedHashMap<>();
            summary.put("memory_id", s.summaryId());
            summary.put("citation", s.summaryCitation());
            summary.put("title", s.summaryTitle());
            summary.put("body", s.summaryBody());
        }
        doc.put("summary", summary);
        return doc;
    }

    private static String time(LocalDateTime t) {
        return MINUTE.format(t) + "Z";
    }

    private static String iso(LocalDateTime t) {
        return t == null ? null : t + "Z";
    }

}
