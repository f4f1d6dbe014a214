package dev.codememory.jobs.runtime;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * The database of the job that is running (one DuckDB connection and those derived from
 * it; "session" in this code base means a Claude Code session). A job opens it when it
 * starts and closes it when it ends, so between runs this process holds no connection and
 * the file lock is free for queries and admin commands. Steps ask for connections through
 * {@link #connections()}; outside a job run there is none to give.
 */
public class JobDatabase {

    private final DuckDb duckDb;

    private volatile DuckDb.Session session;

    private volatile boolean held;

    public JobDatabase(DuckDb duckDb) {
        this.duckDb = duckDb;
    }

    public synchronized void open() {
        if (session == null || !session.isOpen()) {
            session = duckDb.open();
        }
    }

    /**
     * Opens the session and keeps it open until {@link #release()}: the resident
     * {@code serve} owns the database, so the jobs it runs leave the session open behind
     * them and its queries read on it.
     */
    public synchronized DuckDb.Session hold() {
        open();
        held = true;
        return session;
    }

    /** Closes a session kept by {@link #hold()}. */
    public synchronized void release() {
        held = false;
        close();
    }

    public synchronized void close() {
        if (held) {
            return;
        }
        if (session != null) {
            try {
                session.close();
            }
            finally {
                session = null;
            }
        }
    }

    public boolean isOpen() {
        return session != null && session.isOpen();
    }

    public DuckDBConnection connection() {
        DuckDb.Session current = session;
        if (current == null) {
            throw new DatabaseException("no DuckDB session is open: connections are only handed out while a job runs",
                    null);
        }
        return current.connection();
    }

    public Supplier<DuckDBConnection> connections() {
        return this::connection;
    }

    /** Work on a connection: a query and its row mapping. */
    @FunctionalInterface
    public interface Work<T> {

        T on(Connection c) throws SQLException;

    }

    /**
     * {@code work} on a connection of its own, closed after it; a failure is a
     * {@link DatabaseException} that says what could not be done ({@code "cannot " +
     * what}). The one place the jobs' wiring turns JDBC's checked exceptions into the
     * database's.
     */
    public <T> T read(String what, Work<T> work) {
        try (Connection c = connection()) {
            return work.on(c);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot " + what + ": " + e.getMessage(), e);
        }
    }

}
