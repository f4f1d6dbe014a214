package dev.codememory.jobs.runtime;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * One job at a time per job repository kept on PostgreSQL, whatever machine runs it: a
 * session advisory lock on the repository's schema, held on a connection of its own for
 * the length of the run. It is {@code jobs.lock} for the serves that share a repository
 * but not a home folder (a home on two machines, clustered): without it, a serve finding
 * the other's run STARTED would take it for a crash and recover it under the other's
 * feet. PostgreSQL drops the lock when its holder's connection goes ({@code kill -9}, a
 * lost machine), so a run left STARTED with the lock free is one whose process died. A
 * repository anywhere else (SQLite in the home) is one process's: nothing to hold.
 */
public final class RepositoryJobLock {

    /** The lock's first key: "cmjb" in ASCII; the second is the schema's hash. */
    static final int KEY = 0x636d6a62;

    private final DataSource repository;

    private volatile Boolean postgres;

    public RepositoryJobLock(DataSource repository) {
        this.repository = repository;
    }

    /**
     * Takes the lock, or fails with {@link ProcessLock.JobsBusyException} naming the
     * holder; the returned handle releases it.
     */
    public Held hold() {
        if (!onPostgres()) {
            return () -> {
            };
        }
        Connection c = null;
        try {
            c = repository.getConnection();
            c.setAutoCommit(true);
            if (tryLock(c)) {
                Connection held = c;
                return () -> release(held);
            }
            String holder = holder(c);
            c.close();
            throw new ProcessLock.JobsBusyException("another code-memory job of this job repository is running" + holder
                    + "; it holds the repository's job lock in PostgreSQL. It runs at the next fire.");
        }
        catch (SQLException e) {
            closeQuietly(c);
            throw new ProcessLock.JobsBusyException("cannot take the job repository's lock: " + e.getMessage());
        }
    }

    private boolean onPostgres() {
        Boolean known = postgres;
        if (known == null) {
            try (Connection c = repository.getConnection()) {
                known = "PostgreSQL".equals(c.getMetaData().getDatabaseProductName());
            }
            catch (SQLException e) {
                throw new IllegalStateException("cannot reach the job repository: " + e.getMessage(), e);
            }
            postgres = known;
        }
        return known;
    }

    private static boolean tryLock(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st
                    .executeQuery("SELECT pg_try_advisory_lock(" + KEY + ", hashtext(current_schema()))")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** " (PostgreSQL session N from ADDRESS)", or empty when gone meanwhile. */
    private static String holder(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT a.pid, coalesce(host(a.client_addr), 'a local socket') FROM pg_locks l
                JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.classid = %d AND l.objid = hashtext(current_schema())::oid
                  AND l.objsubid = 2 AND l.granted""".formatted(KEY))) {
            return rs.next() ? " (PostgreSQL session " + rs.getInt(1) + " from " + rs.getString(2) + ")" : "";
        }
    }

    /**
     * Unlocks and hands the connection back to the pool. A pooled connection keeps its
     * session, and with it a lock left behind, so every advisory lock of the session
     * goes; if even that fails, the connection is broken and the pool drops it (and
     * PostgreSQL the lock with it).
     */
    private static void release(Connection held) {
        try (Statement st = held.createStatement()) {
            st.execute("SELECT pg_advisory_unlock_all()");
        }
        catch (SQLException e) {
            // the session is gone, and the lock with it
        }
        finally {
            closeQuietly(held);
        }
    }

    /** A lock held; closing it releases it. */
    @FunctionalInterface
    public interface Held extends AutoCloseable {

        @Override
        void close();

    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            }
            catch (SQLException ignored) {
                // nothing to add
            }
        }
    }

}
