package dev.codememory.jobs.cli;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.context.SessionLease;
import dev.codememory.jobs.serve.ServeClient;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/**
 * {@code tasks [--status S]}, {@code task show ID} and {@code blocked}: the task entities graduation keeps,
 * read straight from DuckDB (no Spring start-up). Exit 3 when a job holds the database.
 */
public final class TaskCommands {

    private static final Set<String> STATUSES = Set.of("pending", "in_progress", "blocked", "done", "cancelled");

    private TaskCommands() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        CodeMemoryHome home = CodeMemoryHome.resolve();
        java.util.OptionalInt served = ServeClient.forHome(home).command(args, java.nio.file.Path.of(""), out, err);
        if (served.isPresent()) {
            return served.getAsInt();
        }
        return run(args, home, out, err, () -> new SessionLease(DuckDb.forHome(home).open(), true));
    }

    /** The commands on the sessions given: their own, or the resident {@code serve}'s. */
    public static int run(String[] args, CodeMemoryHome home, PrintStream out, PrintStream err,
            java.util.function.Supplier<SessionLease> sessions) {
        if (!home.database().toFile().exists()) {
            out.println("no memory yet: run `java -jar jobs.jar --job=graduate` first");
            return 0;
        }
        try (SessionLease lease = sessions.get(); Connection c = lease.session().connection()) {
            return switch (args[0]) {
                case "tasks" -> list(c, args, out, err);
                case "blocked" -> list(c, new String[] {"tasks", "--status", "blocked"}, out, err);
                case "task" -> show(c, args, out, err);
                default -> usage(err);
            };
        } catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return JobCommandRunner.EXIT_BUSY;
        } catch (SQLException e) {
            err.println("cannot read tasks: " + e.getMessage());
            return 1;
        }
    }

    private static int list(Connection c, String[] args, PrintStream out, PrintStream err) throws SQLException {
        String status = null;
        if (args.length == 3 && args[1].equals("--status")) {
            status = args[2].toLowerCase(Locale.ROOT).replace('-', '_');
            if (!STATUSES.contains(status)) {
                err.println("unknown status '" + args[2] + "'; one of " + String.join(", ", STATUSES));
                return JobCommandRunner.EXIT_USAGE;
            }
        } else if (args.length != 1) {
            return usage(err);
        }
        String sql = """
                SELECT t.entity_id, t.status, coalesce(t.current_json->>'priority', ''), t.title, t.project,
                       (SELECT string_agg(b.entity_type || ': ' || b.title, '; ' ORDER BY b.title)
                        FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by') AS blockers
                FROM entities t WHERE t.entity_type = 'task' AND (? IS NULL OR t.status = ?)
                ORDER BY t.project, t.status, t.title""";
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, status);
            ps.setString(2, status);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n++;
                    out.printf("%s  %-11s %-8s %s%n", rs.getString(1), rs.getString(2),
                            rs.getString(3).toLowerCase(Locale.ROOT), rs.getString(4));
                    if (rs.getString(6) != null) {
                        out.printf("    blocked by %s%n", rs.getString(6));
                    }
                }
            }
        }
        if (n == 0) {
            out.println(status == null ? "no tasks" : "no " + status + " tasks");
        }
        return 0;
    }

    private static int show(Connection c, String[] args, PrintStream out, PrintStream err) throws SQLException {
        if (args.length != 3 || !args[1].equals("show")) {
            return usage(err);
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT entity_id, title, status, project, current_json::VARCHAR FROM entities
                WHERE entity_type = 'task' AND (entity_id = ? OR entity_id LIKE ? || '%')""")) {
            ps.setString(1, args[2]);
            ps.setString(2, args[2]);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    err.println("no task " + args[2]);
                    return 1;
                }
                String id = rs.getString(1);
                out.printf("%s%n  title:   %s%n  status:  %s%n  project: %s%n", id, rs.getString(2), rs.getString(3),
                        rs.getString(4));
                printBlockers(c, id, "blocked_by", "blocked by", out);
                printBlockers(c, id, "blocked_by_suggested", "maybe blocked by", out);
                printHistory(c, id, out);
                printEvidence(c, id, out);
            }
        }
        return 0;
    }

    private static void printBlockers(Connection c, String id, String rel, String label, PrintStream out)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT b.entity_type, b.title, b.canonical_key FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                WHERE e.src_id = ? AND e.rel_type = ? ORDER BY b.title""")) {
            ps.setString(1, id);
            ps.setString(2, rel);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.printf("  %s %s: %s (%s)%n", label, rs.getString(1), rs.getString(2), rs.getString(3));
                }
            }
        }
    }

    private static void printHistory(Connection c, String id, PrintStream out) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT ts, event_type, source_entry FROM task_events WHERE entity_id = ? ORDER BY seq")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                out.println("  history:");
                while (rs.next()) {
                    out.printf("    %s  %s  (from %s)%n", rs.getString(1), rs.getString(2), rs.getString(3));
                }
            }
        }
    }

    private static void printEvidence(Connection c, String id, PrintStream out) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT s.event_id, s.field, s.method, s.confidence, substr(q.quote, 1, 120)
                FROM edges e JOIN evidence_spans s ON s.entry_id = e.src_id
                JOIN (SELECT entry_id, unnest(from_json(quotes_json, '[{"text":"VARCHAR"}]')).text AS quote,
                             generate_subscripts(from_json(quotes_json, '[{"text":"VARCHAR"}]'), 1) - 1 AS idx
                      FROM entries) q ON q.entry_id = s.entry_id AND q.idx = s.quote_index
                WHERE e.dst_id = ? AND e.rel_type = 'evidence_of' ORDER BY s.event_id""")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                out.println("  evidence:");
                while (rs.next()) {
                    out.printf("    %s/%s %s %.2f \"%s\"%n", rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getDouble(4), rs.getString(5).replace('\n', ' '));
                }
            }
        }
    }

    private static int usage(PrintStream err) {
        err.println("usage: tasks [--status pending|in_progress|blocked|done|cancelled] | task show ID | blocked");
        return JobCommandRunner.EXIT_USAGE;
    }
}
