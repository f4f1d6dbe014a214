package dev.codememory.config.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbTests {

    @TempDir
    Path tmp;

    @Test
    void openCreatesTheFileAndMigrates() throws SQLException {
        Path file = tmp.resolve("memory.duckdb");
        DuckDb db = new DuckDb(file, "1GB", 1);
        assertThat(file).doesNotExist();

        try (DuckDb.Session session = db.open(); Connection c = session.connection()) {
            assertThat(session.isOpen()).isTrue();
            assertThat(file).isRegularFile();
            assertThat(db.file()).isEqualTo(file);
            assertThat(SchemaMigrator.currentVersion(c)).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(count(c, "SELECT count(*) FROM schema_migrations")).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(count(c, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main'"))
                .isEqualTo(30);
        }
    }

    @Test
    void openCreatesAMissingParentFolderOwnerOnly() throws IOException {
        Path file = tmp.resolve("a/b/memory.duckdb");

        try (DuckDb.Session session = new DuckDb(file, null, 0).open()) {
            assertThat(session.isOpen()).isTrue();
        }

        assertThat(file).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
            .isEqualTo("rwx------");
    }

    @Test
    void shrinkingTheCacheEvictsWhatAReadBroughtInAndKeepsTheLimit() throws SQLException {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big AS SELECT range AS id, md5(range::VARCHAR) || md5((-range)::VARCHAR) AS text"
                    + " FROM range(1000000)");
            st.execute("CHECKPOINT");
            assertThat(count(c, "SELECT count(DISTINCT text) FROM big")).isEqualTo(1_000_000);

            long[] bytes = session.shrinkCache("16MB");

            assertThat(bytes[0]).isGreaterThan(24L << 20);
            assertThat(bytes[1]).isLessThanOrEqualTo(16L << 20);
            try (ResultSet rs = st.executeQuery("SELECT current_setting('memory_limit')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("953.6 MiB"); // 1 GB, as DuckDB
                                                                    // prints it
            }
            assertThat(count(c, "SELECT count(*) FROM big")).isEqualTo(1_000_000);
        }
        try (DuckDb.Session noLimit = new DuckDb(tmp.resolve("other.duckdb"), null, 0).open()) {
            assertThat(noLimit.shrinkCache("16MB")).containsExactly(-1, -1);
        }
    }

    /**
     * The index of a table changed since the last checkpoint cannot be evicted (as after
     * a forget in serve): DuckDB refuses a limit below it, after evicting the rest.
     */
    @Test
    void shrinkingBelowWhatCannotBeEvictedEvictsTheRestAndKeepsTheLimit() throws SQLException {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE big AS SELECT range AS id, md5(range::VARCHAR) || md5((-range)::VARCHAR) AS text"
                    + " FROM range(1000000)");
            st.execute("CHECKPOINT");
            assertThat(count(c, "SELECT count(DISTINCT text) FROM big")).isEqualTo(1_000_000);
            st.execute("CREATE TABLE keyed AS SELECT 'id' || range AS id FROM range(2000000)");
            st.execute("CREATE UNIQUE INDEX keyed_id ON keyed (id)");
            long index = count(c, "SELECT memory_usage_bytes FROM duckdb_memory() WHERE tag = 'ART_INDEX'");
            assertThat(index).isGreaterThan(32L << 20);

            long[] bytes = session.shrinkCache("16MB");

            assertThat(bytes[0]).isGreaterThan(index + (24L << 20));
            assertThat(bytes[1]).isGreaterThanOrEqualTo(index).isLessThan(index + (16L << 20));
            try (Statement fresh = c.createStatement();
                    ResultSet rs = fresh.executeQuery("SELECT current_setting('memory_limit')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("953.6 MiB");
            }
            // a statement that needs more than the lower limit runs
            assertThat(count(c, "SELECT count(DISTINCT text) FROM big")).isEqualTo(1_000_000);
        }
    }

    @Test
    void aSessionKeepsWritingItsLogPastDuckDbsDefaultCheckpointAndCheckpointsWhenItCloses() throws SQLException {
        Path file = tmp.resolve("memory.duckdb");
        Path wal = tmp.resolve("memory.duckdb.wal");
        long walWhileOpen;
        try (DuckDb.Session session = new DuckDb(file, "1GB", 1).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (i INTEGER, s VARCHAR)");
            for (int chunk = 0; chunk < 3; chunk++) {
                // below a row group each, so the rows go through the log, as ingest's
                // chunks do
                st.execute("INSERT INTO t SELECT i, md5(i::VARCHAR) || repeat(md5((i * 7)::VARCHAR), 50) FROM range("
                        + chunk * 10_000 + ", " + (chunk + 1) * 10_000 + ") r(i)");
            }
            walWhileOpen = Files.size(wal);
        }
        catch (IOException e) {
            throw new AssertionError(e);
        }

        assertThat(walWhileOpen).as("log bytes before close").isGreaterThan(32L << 20);
        assertThat(Files.exists(wal) ? wal.toFile().length() : 0).as("log bytes after close").isZero();
        try (DuckDb.Session session = new DuckDb(file, "1GB", 1).open();
                Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT i) FROM t")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(30_000);
            assertThat(rs.getLong(2)).isEqualTo(30_000);
        }
    }

    @Test
    void closeReleasesTheSession() {
        DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();

        session.close();

        assertThat(session.isOpen()).isFalse();
    }

    @Test
    void sessionConnectionsShareOneInstance() throws SQLException {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                DuckDBConnection writer = session.connection();
                DuckDBConnection reader = session.connection()) {
            assertThat(reader).isNotSameAs(writer);
            try (Statement st = writer.createStatement()) {
                st.executeUpdate("INSERT INTO processing_watermarks VALUES ('s', 7, TIMESTAMP '2025-01-01 00:00:00')");
            }

            assertThat(count(reader, "SELECT last_seq FROM processing_watermarks WHERE stage = 's'")).isEqualTo(7);
        }
    }

    @Test
    void reopeningKeepsDataAndDoesNotMigrateAgain() throws SQLException {
        DuckDb db = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1);
        try (DuckDb.Session session = db.open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO processing_watermarks VALUES ('s', 3, TIMESTAMP '2025-01-01 00:00:00')");
        }

        try (DuckDb.Session session = db.open(); Connection c = session.connection()) {
            assertThat(count(c, "SELECT count(*) FROM schema_migrations")).isEqualTo(SchemaMigrator.latestVersion());
            assertThat(count(c, "SELECT last_seq FROM processing_watermarks")).isEqualTo(3);
        }
    }

    @Test
    void secondOpenInTheSameJvmSharesTheInstanceWhileTheFirstIsOpen() throws SQLException {
        DuckDb db = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1);
        try (DuckDb.Session first = db.open()) {
            try (Connection c = first.connection(); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO processing_watermarks VALUES ('a', 1, TIMESTAMP '2025-01-01 00:00:00')");
            }

            try (DuckDb.Session second = db.open(); Connection c = second.connection()) {
                assertThat(second.isOpen()).isTrue();
                assertThat(count(c, "SELECT last_seq FROM processing_watermarks WHERE stage = 'a'")).isEqualTo(1);
                assertThat(count(c, "SELECT count(*) FROM schema_migrations"))
                    .isEqualTo(SchemaMigrator.latestVersion());
                try (Statement st = c.createStatement()) {
                    st.executeUpdate(
                            "INSERT INTO processing_watermarks VALUES ('b', 2, TIMESTAMP '2025-01-01 00:00:00')");
                }
            }

            assertThat(first.isOpen()).isTrue();
            try (Connection c = first.connection()) {
                assertThat(count(c, "SELECT count(*) FROM processing_watermarks")).isEqualTo(2);
            }
        }
    }

    @Test
    void closingOneSessionLeavesTheOtherOpen() throws SQLException {
        DuckDb db = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1);
        DuckDb.Session first = db.open();
        try (DuckDb.Session second = db.open()) {
            first.close();

            assertThat(first.isOpen()).isFalse();
            assertThat(second.isOpen()).isTrue();
            try (Connection c = second.connection(); Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO processing_watermarks VALUES ('c', 5, TIMESTAMP '2025-01-01 00:00:00')");
                assertThat(count(c, "SELECT last_seq FROM processing_watermarks")).isEqualTo(5);
            }
        }
    }

    @Test
    void forHomeUsesTheHomeDatabaseFile() {
        CodeMemoryHome home = new CodeMemoryHome(tmp);

        assertThat(DuckDb.forHome(home).file()).isEqualTo(tmp.resolve("memory.duckdb"));
    }

    @Test
    void plainConnectionOpensTheFile() throws SQLException {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open()) {
            assertThat(session.isOpen()).isTrue();
        }

        try (Connection c = DuckDb.plainConnection(tmp.resolve("memory.duckdb"))) {
            assertThat(count(c, "SELECT max(version) FROM schema_migrations"))
                .isEqualTo(SchemaMigrator.latestVersion());
        }
    }

    @Test
    void fileThatIsNotADatabaseFailsWithDatabaseException() throws IOException {
        Path file = Files.writeString(tmp.resolve("memory.duckdb"),
                "this is not a duckdb file, just text\n".repeat(200));

        assertThatThrownBy(() -> new DuckDb(file, "1GB", 1).open()).isInstanceOf(DatabaseException.class)
            .hasMessageStartingWith("cannot open " + file + ": ")
            .hasCauseInstanceOf(SQLException.class);
    }

    @Test
    void openWhileAnotherProcessHoldsTheFileNamesThatProcess() throws Exception {
        Path file = tmp.resolve("memory.duckdb");
        new DuckDb(file, "1GB", 1).open().close();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Holder.class.getName(),
                file.toString())
            .redirectErrorStream(true)
            .start();
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");

            assertThatThrownBy(() -> new DuckDb(file, "1GB", 1).open()).isInstanceOf(DatabaseLockedException.class)
                .hasMessage("the database " + file + " is in use by process " + holder.pid()
                        + " (DuckDB allows one process at a time); wait for it to finish or stop it")
                .satisfies(
                        e -> assertThat(((DatabaseLockedException) e).pid()).isEqualTo(OptionalLong.of(holder.pid())));
        }
        finally {
            holder.getOutputStream().close();
            if (!holder.waitFor(30, TimeUnit.SECONDS)) {
                holder.destroyForcibly();
            }
        }
        assertThat(holder.exitValue()).isZero();

        try (DuckDb.Session session = new DuckDb(file, "1GB", 1).open()) {
            assertThat(session.isOpen()).isTrue();
        }
    }

    @Test
    void pidIsReadFromTheDuckDbMessage() {
        assertThat(DatabaseLockedException.pidIn("IO Error: Could not set lock on file \"/x/memory.duckdb\":"
                + " Conflicting lock is held in /usr/bin/java (PID 1234) by user me. See also ..."))
            .isEqualTo(OptionalLong.of(1234));
        assertThat(DatabaseLockedException.pidIn("... (PID 1234) ...")).isEqualTo(OptionalLong.of(1234));
        assertThat(DatabaseLockedException.pidIn("no process named here")).isEqualTo(OptionalLong.empty());
        assertThat(DatabaseLockedException.pidIn(null)).isEqualTo(OptionalLong.empty());
    }

    @Test
    void lockConflictIsRecognisedByDuckDbsMessage() {
        assertThat(DatabaseLockedException.isLockConflict(new SQLException(
                "IO Error: Could not set lock on file \"/x/memory.duckdb\": Conflicting lock is held in java (PID 1)")))
            .isTrue();
        assertThat(DatabaseLockedException.isLockConflict(new SQLException("IO Error: disk full"))).isFalse();
        assertThat(DatabaseLockedException.isLockConflict(new SQLException())).isFalse();
    }

    @Test
    void lockedExceptionWithoutPidSaysAnotherProcess() {
        SQLException cause = new SQLException("IO Error: Could not set lock on file");
        DatabaseLockedException e = new DatabaseLockedException(Path.of("/h/memory.duckdb"), OptionalLong.empty(),
                cause);

        assertThat(e).hasMessage("the database /h/memory.duckdb is in use by another process"
                + " (DuckDB allows one process at a time); wait for it to finish or stop it");
        assertThat(e.pid()).isEmpty();
        assertThat(e.getCause()).isSameAs(cause);
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            long value = rs.getLong(1);
            assertThat(rs.next()).isFalse();
            return value;
        }
    }

    /** Run in a child JVM: holds the database open until its stdin closes. */
    static final class Holder {

        public static void main(String[] args) throws IOException {
            try (DuckDb.Session session = new DuckDb(Path.of(args[0]), "1GB", 1).open()) {
                System.out.println(session.isOpen() ? "ready" : "closed");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // wait for the parent to close our stdin
                }
            }
        }

    }

}
