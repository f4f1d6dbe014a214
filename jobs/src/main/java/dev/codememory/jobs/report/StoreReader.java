package dev.codememory.jobs.report;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.retrieval.context.SessionLease;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens the store for a read-only report command and maps what can go wrong to the exit
 * codes.
 */
public final class StoreReader {

    public interface Work {

        int run(Connection c) throws SQLException;

    }

    private StoreReader() {
    }

    /**
     * Runs {@code work} on the home's database, as the invocation reads it (its own
     * read-only session, or serve's). No database yet: {@code whenEmpty} is printed and
     * the exit is 0; another process holding it past the wait: exit 3; a failure: exit 1.
     */
    public static int read(Invocation invocation, PrintStream out, PrintStream err, String whenEmpty, Work work) {
        if (!invocation.home().database().toFile().exists()) {
            out.println(whenEmpty);
            return ExitCode.OK;
        }
        try (SessionLease lease = invocation.read(); Connection c = lease.session().connection()) {
            return work.run(c);
        }
        catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return ExitCode.BUSY;
        }
        catch (DatabaseException | SQLException e) {
            err.println("cannot read the store: " + e.getMessage());
            return ExitCode.FAILED;
        }
    }

    /**
     * The project of DIR (its git top level, else DIR), the caller's directory's when
     * null; a relative DIR is the caller's.
     */
    public static String project(Invocation invocation, String dir) {
        return new ProjectResolver().projectOf(invocation.resolve(Path.of(dir == null ? "" : dir)).toString());
    }

}
