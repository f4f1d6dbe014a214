package dev.codememory.jobs.report;

import dev.codememory.config.json.Json;
import dev.codememory.jobs.invocation.Invocation;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stats [--json]}: what the store holds and how it is doing — events (by hook
 * event and source), sessions and projects, memories by kind and state, tasks by status,
 * how much sessions go on with the one before (continuity), the spool backlog, the lag
 * from capture to memory, whether capture is failing (a full disk), the last job runs and
 * the disk each part of the home takes ({@link Stats}, printed as lines or one JSON
 * object).
 */
@Command(name = "stats", header = "what is stored, the spool backlog, the lag to memory, last runs, disk use",
        mixinStandardHelpOptions = true,
        description = "What is stored and how it is doing: events, sessions, memories by kind and status, tasks, the "
                + "spool backlog, the lag from capture to memory, the last runs and disk use.",
        footer = { "", "Exit codes: 0 printed, 1 failed, 3 a job holds the database (the spool and disk figures are "
                + "printed anyway)." })
public final class StatsCommand implements Callable<Integer> {

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    private final PrintStream out;

    private final PrintStream err;

    private final Invocation invocation;

    public StatsCommand(PrintStream out, PrintStream err) {
        this(out, err, Invocation.local());
    }

    /** The command for {@code invocation}: in this process, or in serve for a caller. */
    public StatsCommand(PrintStream out, PrintStream err, Invocation invocation) {
        this.out = out;
        this.err = err;
        this.invocation = invocation;
    }

    @Override
    public Integer call() throws IOException {
        Stats.Report report = Stats.collect(invocation);
        if (!report.problem().isEmpty()) {
            err.println(report.problem());
        }
        out.print(json ? Json.write(report.doc()) + System.lineSeparator() : Stats.text(report.doc()));
        return report.exit();
    }

}
