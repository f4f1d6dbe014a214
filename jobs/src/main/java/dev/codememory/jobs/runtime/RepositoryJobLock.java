package dev.codememory.jobs.runtime;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * One job at a time per job repository kept on PostgreSQL, whatever machine runs it: a
 * session advisory lock on the repository's schema, held for the length of the run. It is
 * {@code jobs.lock} for the serves that share a repository but not a home folder (a home
 * on two machines, clustered): without it, a serve finding the other's run STARTED would
 * take it for a crash and recover it under the other's feet.
 * <p>
 * The lock lives on a connection of its own, outside the pool, closed at the end of the
 * run: PostgreSQL drops it with the session, so nothing can hand it on to the next user
 * of a pooled connection. A holder that dies ({@code kill -9}) closes its socket and
 * frees it at once; one whose machine vanishes is found out by the server's TCP
 * keepalive, set on this session to give up after about a minute rather than the system's
 * two hours. A repository anywhere else (SQLite in the home) is one process's: nothing to
 * hold.
 */
public final class RepositoryJobLock {

    /** The lock's first key: "cmjb" in ASCII; the second is the schema's hash. */
    static final int KEY = 0x636d6a62;

    /**
     * The server's keepalive on the lock's session: probes after 30 s of silence, 10 s
     * apart, 3 unanswered end it.
     */
    private static final String KEEPALIVE = "SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10;"
            + " SET tcp_keepalives_count = 3";

    /**
     * This database's advisory locks on this schema: pg_locks shows every database's.
     */
    private static final String THIS_LOCK = "l.locktype = 'advisory' AND l.classid = " + KEY
            + " AND l.objid = hashtext(current_schema())::oid AND l.objsubid = 2"
            + " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())";

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
            c = connect();
            try (Statement st = c.createStatement()) {
                st.execute(KEEPALIVE);
            }
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

    /**
     * A connection of its own to the pool's database, with the pool's settings; from the
     * pool itself only when it is not Hikari's.
     */
    Connection connect() throws SQLException {
        if (!(repository instanceof HikariDataSource pool) || pool.getJdbcUrl() == null) {
            return repository.getConnection();
        }
        Properties properties = new Properties();
        properties.putAll(pool.getDataSourceProperties());
        if (pool.getUsername() != null) {
            properties.setProperty("user", pool.getUsername());
        }
        if (pool.getPassword() != null) {
            properties.setProperty("password", pool.getPassword());
        }
        try {
            Driver driver = (Driver) Class.forName("org.postgresql.Driver", true, getClass().getClassLoader())
                .getDeclaredConstructor()
                .newInstance();
            Connection c = driver.connect(pool.getJdbcUrl(), properties);
            if (c == null) {
                throw new SQLException("the PostgreSQL driver does not take " + pool.getJdbcUrl());
            }
            return c;
        }
        catch (ReflectiveOperationException e) {
            throw new SQLException("the PostgreSQL driver is not on the class path", e);
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
                ResultSet rs = st.executeQuery(
                        "SELECT current_schema(), pg_try_advisory_lock(" + KEY + ", hashtext(current_schema()))")) {
            rs.next();
            if (rs.getString(1) == null) {
                throw new SQLException(
                        "the job repository's schema does not exist (currentSchema in" + " spring.datasource.url)");
            }
            return rs.getBoolean(2);
        }
    }

    /** " (PostgreSQL session N from ADDRESS)", or empty when gone meanwhile. */
    private static String holder(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT a.pid, coalesce(host(a.client_addr), 'a local socket') FROM pg_locks l
                JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE %s AND l.granted""".formatted(THIS_LOCK))) {
            return rs.next() ? " (PostgreSQL session " + rs.getInt(1) + " from " + rs.getString(2) + ")" : "";
        }
    }

    /**
     * Unlocks before closing: a connection from a pool that is not Hikari's keeps its
     * session, and would keep the lock with it.
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

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            }
            catch (SQLException ignored) {
                // the session ends with the socket, and the lock with it
            }
        }
    }

    /** A lock held; closing it releases it. */
    @FunctionalInterface
    public interface Held extends AutoCloseable {

        @Override
        void close();

    }

}
