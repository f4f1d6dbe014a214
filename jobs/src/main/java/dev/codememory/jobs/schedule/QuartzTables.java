package dev.codememory.jobs.schedule;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Creates Quartz's tables in a PostgreSQL database when they are missing, from the script
 * that ships in the Quartz jar. That script drops the tables first (and so would wipe the
 * schedule of every serve already running on them); here only its CREATE statements run,
 * as {@code IF NOT EXISTS}, in one transaction under a transaction-scoped advisory lock:
 * two serves starting at once create the tables once, and a reader never sees half of
 * them (PostgreSQL's DDL is transactional). The tables go where unqualified names go: the
 * first schema of the connection's search path ({@code currentSchema} in the URL).
 */
final class QuartzTables {

    static final String SCRIPT = "org/quartz/impl/jdbcjobstore/tables_postgres.sql";

    /** Key of the advisory lock held while creating the tables ("qrtz" in ASCII). */
    private static final long LOCK_KEY = 0x7172747AL;

    private QuartzTables() {
    }

    /**
     * Creates the tables unless they are there (one of them is enough to tell: they are
     * created together); returns whether it created them.
     */
    static boolean createIfMissing(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            String product = c.getMetaData().getDatabaseProductName();
            if (!"PostgreSQL".equals(product)) {
                throw new IllegalStateException("code-memory.schedule.store=jdbc keeps the schedule in the job"
                        + " repository's database (spring.datasource.url), which must be PostgreSQL; it is " + product);
            }
            if (exists(c)) {
                return false;
            }
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
                // a serve that started at the same time may have made them while we
                // waited
                boolean create = !exists(c);
                if (create) {
                    for (String sql : createStatements()) {
                        st.execute(sql);
                    }
                }
                c.commit();
                return create;
            }
            catch (SQLException e) {
                c.rollback();
                throw e;
            }
            finally {
                c.setAutoCommit(autoCommit);
            }
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot create Quartz's tables: " + e.getMessage(), e);
        }
    }

    /**
     * Read from the catalog with a snapshot of the statement's own, so tables committed
     * while this transaction waited for the lock are seen ({@code to_regclass} goes
     * through the session's catalog cache, which may still hold their absence).
     */
    private static boolean exists(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables"
                        + " WHERE schemaname = current_schema() AND tablename = 'qrtz_locks')")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** The script's CREATE TABLE and CREATE INDEX statements, each made IF NOT EXISTS. */
    static List<String> createStatements() {
        String script = script();
        StringBuilder withoutComments = new StringBuilder();
        script.lines()
            .filter(line -> !line.strip().startsWith("--"))
            .forEach(line -> withoutComments.append(line).append('\n'));
        return Arrays.stream(withoutComments.toString().split(";"))
            .map(String::strip)
            .filter(sql -> sql.toUpperCase(Locale.ROOT).startsWith("CREATE "))
            .map(sql -> sql.replaceFirst("(?i)^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ")
                .replaceFirst("(?i)^CREATE INDEX ", "CREATE INDEX IF NOT EXISTS "))
            .toList();
    }

    private static String script() {
        try (InputStream in = QuartzTables.class.getClassLoader().getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("the Quartz jar has no " + SCRIPT);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SCRIPT, e);
        }
    }

}
