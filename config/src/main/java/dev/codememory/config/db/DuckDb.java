package dev.codememory.config.db;

import dev.codememory.config.home.CodeMemoryHome;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.duckdb.DuckDBConnection;

/**
 * Opens the DuckDB file. DuckDB allows one process at a time and the file lock goes with
 * the last connection of the process, so callers hold a connection only while they work:
 * a job opens one {@link Session} for its run and closes it at the end, which lets
 * queries and admin commands from other processes in between.
 */
public final class DuckDb {

    /**
     * How much write-ahead log DuckDB gathers before it checkpoints (its default is 16
     * MB). A checkpoint writes every index of a changed table in full, so a large import
     * that checkpointed every 16 MB rewrote the million-row indexes of {@code events}
     * dozens of times: ingesting a million generated events took 101 s, 64 s with this
     * threshold (77 s with 256 MB), at 1.9 GB resident instead of 1.1 GB. A session
     * checkpoints when it closes, so the log never outlives a job.
     */
    static final String CHECKPOINT_THRESHOLD = "1GB";

    private final Path file;

    private final Properties properties;

    public DuckDb(Path file, String memoryLimit, int threads) {
        this.file = file;
        this.properties = new Properties();
        if (memoryLimit != null && !memoryLimit.isBlank()) {
            properties.setProperty("memory_limit", memoryLimit);
        }
        if (threads > 0) {
            properties.setProperty("threads", Integer.toString(threads));
        }
        properties.setProperty("checkpoint_threshold", CHECKPOINT_THRESHOLD);
        // only json, parquet and icu are available offline; never let DuckDB try the
        // network
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
    }

    public static DuckDb forHome(CodeMemoryHome home) {
        return new DuckDb(home.database(), "2GB", 2);
    }

    public Path file() {
        return file;
    }

    /**
     * Opens the database (creating it, owner-only, if missing), applies pending
     * migrations and returns a session whose connections share one DuckDB instance.
     */
    public Session open() {
        boolean created = !file.toFile().exists();
        if (created) {
            CodeMemoryHome.createPrivateDirectory(file.toAbsolutePath().getParent());
        }
        DuckDBConnection primary;
        try {
            primary = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file, properties);
        }
        catch (SQLException e) {
            if (DatabaseLockedException.isLockConflict(e)) {
                throw new DatabaseLockedException(file, DatabaseLockedException.pidIn(e.getMessage()), e);
            }
            throw new DatabaseException("cannot open " + file + ": " + e.getMessage(), e);
        }
        Session session = new Session(primary, properties.getProperty("memory_limit"));
        try {
            new SchemaMigrator().migrate(primary);
        }
        catch (RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    /**
     * Opens an existing database read-only, without migrating it: several readers (hooks)
     * may hold it at once, but not while a job writes to it
     * ({@link DatabaseLockedException}), and a job cannot start while they do. A file
     * that does not exist is a {@link DatabaseException}; nothing is created.
     */
    public Session openReadOnly() {
        if (!file.toFile().exists()) {
            throw new DatabaseException("no database at " + file, null);
        }
        Properties readOnly = new Properties();
        readOnly.putAll(properties);
        readOnly.setProperty("duckdb.read_only", "true");
        try {
            return new Session((DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + file, readOnly),
                    properties.getProperty("memory_limit"));
        }
        catch (SQLException e) {
            if (DatabaseLockedException.isLockConflict(e)) {
                throw new DatabaseLockedException(file, DatabaseLockedException.pidIn(e.getMessage()), e);
            }
            throw new DatabaseException("cannot open " + file + " read-only: " + e.getMessage(), e);
        }
    }

    /**
     * Opens the database for a command that only reads: read-only when its schema is
     * current, so that readers in several processes share the file (two commands started
     * at once, as a slash command starts them, do not fail each other), else read-write
     * to migrate it first ({@link #open()}). While a process holds it for writing (a job,
     * a command that writes) the open is retried for up to {@code patience}; then the
     * {@link DatabaseLockedException} naming that process is thrown.
     */
    public Session openForReading(java.time.Duration patience) {
        return waitingForLock(patience, () -> {
            Session session = openReadOnly();
            try (Connection c = session.connection()) {
                if (SchemaMigrator.currentVersion(c) >= SchemaMigrator.latestVersion()) {
                    return session;
                }
            }
            catch (SQLException e) {
                // no schema_migrations table yet: the read-write open creates it
            }
            session.close();
            return open();
        });
    }

    /**
     * {@link #open()}, retried for up to {@code patience} while another process holds the
     * file.
     */
    public Session open(java.time.Duration patience) {
        return waitingForLock(patience, this::open);
    }

    /**
     * Runs {@code open} until it does not find the file locked, or {@code patience} has
     * passed (then the last {@link DatabaseLockedException} is thrown). A holder is
     * usually another command that reads for a second or two; a job holds it for its
     * whole run, longer than a command should wait.
     */
    static Session waitingForLock(java.time.Duration patience, java.util.function.Supplier<Session> open) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            try {
                return open.get();
            }
            catch (DatabaseLockedException e) {
                if (System.nanoTime() + LOCK_RETRY.toNanos() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(LOCK_RETRY.toMillis());
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseException("interrupted while waiting for the database lock", e);
            }
        }
    }

    /** How often a waiting open tries again. */
    static final java.time.Duration LOCK_RETRY = java.time.Duration.ofMillis(100);

    /**
     * One open DuckDB instance. {@link #connection()} hands out cheap duplicates; close
     * the session to unlock.
     */
    public static final class Session implements AutoCloseable {

        private final DuckDBConnection primary;

        private final String memoryLimit;

        private Session(DuckDBConnection primary, String memoryLimit) {
            this.primary = primary;
            this.memoryLimit = memoryLimit;
        }

        /**
         * Evicts DuckDB's buffer pool down to {@code keep} (a DuckDB size, e.g.
         * {@code "64MB"}) and restores the memory limit the session was opened with;
         * DuckDB's allocator then returns the freed memory to the system in the
         * background. Without it the pages a large read brought in stay cached, and
         * resident, up to the limit: for a process that lives for days after one such
         * read (serve's warm-up) that is memory taken for nothing. Statements running
         * meanwhile see the lower limit for a moment.
         * <p>
         * What cannot be evicted (the indexes of a table changed since the last
         * checkpoint: after a {@code forget} in serve, the ART indexes of {@code events},
         * 74 MB at two million rows) may hold more than {@code keep}: DuckDB then refuses
         * the lower limit after evicting everything else, keeps its limit, and closes the
         * statement. That is as far as the cache can shrink, not a failure. The limit is
         * set again in every case, on a fresh statement, and checked: it is never left
         * low.
         * @return the bytes DuckDB held before and after; nothing is done (and
         * {@code {-1, -1}} returned) for a session opened without an explicit limit,
         * which could not be restored exactly
         * @throws DatabaseException when DuckDB fails otherwise, or the limit could not
         * be restored
         */
        public long[] shrinkCache(String keep) {
            if (memoryLimit == null) {
                return new long[] { -1, -1 };
            }
            try (Connection c = connection()) {
                String limit;
                long before;
                try (java.sql.Statement st = c.createStatement()) {
                    limit = memoryLimitSetting(st);
                    before = memoryInUse(st);
                    st.execute("SET allocator_background_threads = true");
                }
                try {
                    lowerLimit(c, keep);
                }
                finally {
                    try (java.sql.Statement st = c.createStatement()) {
                        st.execute("SET memory_limit = '" + memoryLimit.replace("'", "") + "'");
                        if (!limit.equals(memoryLimitSetting(st))) {
                            throw new DatabaseException("DuckDB's memory limit was left at " + memoryLimitSetting(st)
                                    + " instead of " + limit, null);
                        }
                    }
                }
                try (java.sql.Statement st = c.createStatement()) {
                    return new long[] { before, memoryInUse(st) };
                }
            }
            catch (SQLException e) {
                throw new DatabaseException("cannot shrink DuckDB's cache: " + e.getMessage(), e);
            }
        }

        /**
         * Sets the memory limit to {@code keep}, which evicts what it can; DuckDB's
         * refusal (more than {@code keep} cannot be evicted) is as far as it goes.
         */
        private static void lowerLimit(Connection c, String keep) throws SQLException {
            try (java.sql.Statement st = c.createStatement()) {
                st.execute("SET memory_limit = '" + keep.replace("'", "") + "'");
            }
            catch (SQLException e) {
                if (!String.valueOf(e.getMessage()).contains("Failed to change memory limit")) {
                    throw e;
                }
            }
        }

        private static String memoryLimitSetting(java.sql.Statement st) throws SQLException {
            try (java.sql.ResultSet rs = st.executeQuery("SELECT current_setting('memory_limit')")) {
                rs.next();
                return rs.getString(1);
            }
        }

        private static long memoryInUse(java.sql.Statement st) throws SQLException {
            try (java.sql.ResultSet rs = st.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }

        /** A new connection on the same instance; the caller closes it. */
        public DuckDBConnection connection() {
            try {
                return primary.duplicate();
            }
            catch (SQLException e) {
                throw new DatabaseException("cannot duplicate a DuckDB connection: " + e.getMessage(), e);
            }
        }

        public boolean isOpen() {
            try {
                return !primary.isClosed();
            }
            catch (SQLException e) {
                return false;
            }
        }

        @Override
        public void close() {
            try {
                primary.close();
            }
            catch (SQLException e) {
                throw new DatabaseException("cannot close DuckDB: " + e.getMessage(), e);
            }
        }

    }

    /** Used by tests and tools that need a plain connection for one statement. */
    public static Connection plainConnection(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:" + file);
    }

}
