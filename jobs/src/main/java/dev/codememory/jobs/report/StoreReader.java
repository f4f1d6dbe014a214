package dev.codememory.jobs.report;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.cli.Cli;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens the store for a read-only report command and maps what can go wrong to the exit
 * codes.
 */
final class StoreReader {

    interface Work {

        int run(Connection c) throws SQLException;

    }

    private StoreReader() {
    }

    /**
     * Runs {@code work} on the home's database. No database yet: {@code whenEmpty} is
     * printed and the exit is 0; a job holding it: exit 3; a failure: exit 1.
     */
    static int read(CodeMemoryHome home, PrintStream out, PrintStream err, String whenEmpty, Work work) {
        if (!home.database().toFile().exists()) {
            out.println(whenEmpty);
            return Cli.EXIT_OK;
        }
        try (DuckDb.Session session = DuckDb.forHome(home).open(); Connection c = session.connection()) {
            return work.run(c);
        }
        catch (DatabaseLockedException e) {
            err.println(e.getMessage());
            return Cli.EXIT_BUSY;
        }
        catch (DatabaseException | SQLException e) {
            err.println("cannot read the store: " + e.getMessage());
            return Cli.EXIT_FAILED;
        }
    }

    /**
     * The project of DIR (its git top level, else DIR), the current directory's when
     * null.
     */
    static String project(String dir) {
        return new ProjectResolver().projectOf(Path.of(dir == null ? "" : dir).toAbsolutePath().toString());
    }

}
