package dev.codememory.jobs.tasks;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.Sql;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.retrieval.context.SessionLease;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code tasks [--status S]}, {@code task show ID} and {@code blocked}: the task entities
 * graduation keeps, read straight from DuckDB (no Spring start-up). Exit 1 for an unknown
 * task, 2 for bad usage, 3 when a job holds the database.
 */
public final class TaskCommands {

    private static final Set<String> STATUSES = Set.of("pending", "in_progress", "blocked", "done", "cancelled");

    private TaskCommands() {
    }

    /**
     * {@code tasks}, {@code task show ID} and {@code blocked} for {@code invocation},
     * printing to the given streams.
     */
    public static List<CommandLine> commandLines(PrintStream out, PrintStream err, Invocation source) {
        CommandLine task = new CommandLine(new Task());
        task.addSubcommand("show", new CommandLine(new TaskShow(out, err, source)));
        return List.of(new CommandLine(new Tasks(out, err, source)), task,
                new CommandLine(new Blocked(out, err, source)));
    }

    @Command(name = "tasks", header = "the tasks graduation keeps, with status and blockers",
            mixinStandardHelpOptions = true,
            description = "The tasks graduation keeps, per project: status, priority, title and what blocks them.")
    static final class Tasks implements Callable<Integer> {

        @Option(names = "--status", paramLabel = "S",
                description = "only tasks in this status: pending, in_progress, blocked, done, cancelled")
        String status;

        private final PrintStream out;

        private final PrintStream err;

        private final Invocation source;

        Tasks(PrintStream out, PrintStream err, Invocation source) {
            this.out = out;
            this.err = err;
            this.source = source;
        }

        @Override
        public Integer call() {
            String wanted = status == null ? null : status.toLowerCase(Locale.ROOT).replace('-', '_');
            if (wanted != null && !STATUSES.contains(wanted)) {
                err.println("unknown status '" + status + "'; one of " + String.join(", ", new TreeSet<>(STATUSES)));
                return ExitCode.USAGE;
            }
            return withDatabase(source, out, err, c -> list(c, wanted, out));
        }

    }

    @Command(name = "blocked", header = "the blocked tasks and what blocks them", mixinStandardHelpOptions = true,
            description = "The blocked tasks and their blockers.")
    static final class Blocked implements Callable<Integer> {

        private final PrintStream out;

        private final PrintStream err;

        private final Invocation source;

        Blocked(PrintStream out, PrintStream err, Invocation source) {
            this.out = out;
            this.err = err;
            this.source = source;
        }

        @Override
        public Integer call() {
            return withDatabase(source, out, err, c -> list(c, "blocked", out));
        }

    }

    @Command(name = "task", header = "one task: task show ID", mixinStandardHelpOptions = true,
            subcommandsRepeatable = false, description = "One task: `task show ID`.")
    static final class Task implements Callable<Integer> {

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            throw new CommandLine.ParameterException(spec.commandLine(), "task needs a subcommand: show ID");
        }

    }

    @Command(name = "show", header = "a task's title, status, project, blockers, history and evidence",
            mixinStandardHelpOptions = true,
            description = "A task's title, status, project, blockers, history and evidence.")
    static final class TaskShow implements Callable<Integer> {

        @Parameters(paramLabel = "ID", description = "the task's id, or the start of it")
        String id;

        private final PrintStream out;

        private final PrintStream err;

        private final Invocation source;

        TaskShow(PrintStream out, PrintStream err, Invocation source) {
            this.out = out;
            this.err = err;
            this.source = source;
        }

        @Override
        public Integer call() {
            return withDatabase(source, out, err, c -> show(c, id, out, err));
        }

    }

    private interface Work {

        int run(Connection c) throws SQLException;

    }

    private static int withDatabase(Invocation source, PrintStream out, PrintStream err, Work work) {
        if (!source.home().database().toFile().exists()) {
            out.println("no memory yet: run `java -jar jobs.jar --job=graduate` first");
            return 0;
        }
        try (SessionLease lease = source.read(); Connection c = lease.session().connection()) {
            return work.run(c);
        }
        catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return ExitCode.BUSY;
        }
        catch (SQLException e) {
            err.println("cannot read tasks: " + e.getMessage());
            return 1;
        }
    }

    private static int list(Connection c, String status, PrintStream out) throws SQLException {
        String sql = """
                SELECT t.entity_id, t.status, coalesce(t.current_json->>'priority', ''), t.title, t.project,
                       (SELECT string_agg(b.entity_type || ': ' || b.title, '; ' ORDER BY b.title)
                        FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by') AS blockers
                FROM entities t WHERE t.entity_type = 'task' AND (? IS NULL OR t.status = ?)
                ORDER BY t.project, t.status, t.title""";
        int[] n = { 0 };
        Sql.each(c, sql, rs -> {
            n[0]++;
            out.printf("%s  %-11s %-8s %s%n", rs.getString(1), rs.getString(2),
                    rs.getString(3).toLowerCase(Locale.ROOT), rs.getString(4));
            if (rs.getString(6) != null) {
                out.printf("    blocked by %s%n", rs.getString(6));
            }
        }, status, status);
        if (n[0] == 0) {
            out.println(status == null ? "no tasks" : "no " + status + " tasks");
        }
        return 0;
    }

    private static int show(Connection c, String wanted, PrintStream out, PrintStream err) throws SQLException {
        Optional<String[]> task = Sql.first(c, """
                SELECT entity_id, title, status, project FROM entities
                WHERE entity_type = 'task' AND (entity_id = ? OR entity_id LIKE ? || '%')""",
                rs -> new String[] { rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4) }, wanted,
                wanted);
        if (task.isEmpty()) {
            err.println("no task " + wanted);
            return 1;
        }
        String id = task.get()[0];
        out.printf("%s%n  title:   %s%n  status:  %s%n  project: %s%n", id, task.get()[1], task.get()[2],
                task.get()[3]);
        printBlockers(c, id, "blocked_by", "blocked by", out);
        printBlockers(c, id, "blocked_by_suggested", "maybe blocked by", out);
        printHistory(c, id, out);
        printEvidence(c, id, out);
        return 0;
    }

    private static void printBlockers(Connection c, String id, String rel, String label, PrintStream out)
            throws SQLException {
        Sql.each(c, """
                SELECT b.entity_type, b.title, b.canonical_key FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                WHERE e.src_id = ? AND e.rel_type = ? ORDER BY b.title""",
                rs -> out.printf("  %s %s: %s (%s)%n", label, rs.getString(1), rs.getString(2), rs.getString(3)), id,
                rel);
    }

    private static void printHistory(Connection c, String id, PrintStream out) throws SQLException {
        out.println("  history:");
        Sql.each(c, "SELECT ts, event_type, source_entry FROM task_events WHERE entity_id = ? ORDER BY seq",
                rs -> out.printf("    %s  %s  (from %s)%n", rs.getString(1), rs.getString(2), rs.getString(3)), id);
    }

    private static void printEvidence(Connection c, String id, PrintStream out) throws SQLException {
        out.println("  evidence:");
        Sql.each(c, """
                SELECT s.event_id, s.field, s.method, s.confidence, substr(q.quote, 1, 120)
                FROM edges e JOIN evidence_spans s ON s.entry_id = e.src_id
                JOIN (SELECT entry_id, unnest(from_json(quotes_json, '[{"text":"VARCHAR"}]')).text AS quote,
                             generate_subscripts(from_json(quotes_json, '[{"text":"VARCHAR"}]'), 1) - 1 AS idx
                      FROM entries) q ON q.entry_id = s.entry_id AND q.idx = s.quote_index
                WHERE e.dst_id = ? AND e.rel_type = 'evidence_of' ORDER BY s.event_id""",
                rs -> out.printf("    %s/%s %s %.2f \"%s\"%n", rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getDouble(4), rs.getString(5).replace('\n', ' ')),
                id);
    }

}
