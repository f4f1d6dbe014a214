package dev.codememory.config.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionsTests {

    @TempDir
    Path tmp;

    @Test
    void aRollbackThatFailsIsKeptBesideTheFailureNotInItsPlace() throws Exception {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                DuckDBConnection c = session.connection();
                Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("CREATE TABLE t (x INTEGER)");
            st.execute("ROLLBACK"); // the transaction ends behind JDBC's back, as DuckDB
                                    // ends it on a full disk
            SQLException failure = new SQLException("No space left on device");

            Transactions.rollback(c, failure);

            assertThat(failure.getMessage()).isEqualTo("No space left on device");
            assertThat(failure.getSuppressed()).singleElement()
                .satisfies(s -> assertThat(s.getMessage()).contains("no transaction is active"));
        }
    }

    @Test
    void aRollbackThatWorksUndoesTheTransactionAndAddsNothing() throws Exception {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                DuckDBConnection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (x INTEGER)");
            c.setAutoCommit(false);
            st.execute("INSERT INTO t VALUES (1)");
            SQLException failure = new SQLException("constraint");

            Transactions.rollback(c, failure);

            assertThat(failure.getSuppressed()).isEmpty();
            c.setAutoCommit(true);
            try (var rs = st.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void workIsCommittedAndItsResultReturned() throws Exception {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open()) {
            create(session);

            long inserted = Transactions.inTransaction(session::connection, () -> "insert", c -> {
                try (Statement st = c.createStatement()) {
                    return (long) st.executeUpdate("INSERT INTO t VALUES (1), (2)");
                }
            });

            assertThat(inserted).isEqualTo(2);
            assertThat(count(session)).isEqualTo(2);
        }
    }

    @Test
    void failedWorkIsRolledBackAndSaysWhatCouldNotBeDone() throws Exception {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open()) {
            create(session);

            assertThatThrownBy(() -> Transactions.inTransaction(session::connection, () -> "write 2 rows", c -> {
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO t VALUES (1)");
                    st.execute("INSERT INTO missing VALUES (2)");
                }
                return null;
            })).isInstanceOf(DatabaseException.class)
                .hasMessageStartingWith("cannot write 2 rows: ")
                .hasMessageContaining("missing");
            assertThatThrownBy(() -> Transactions.inTransaction(session::connection, () -> "never said", c -> {
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO t VALUES (3)");
                }
                throw new IllegalStateException("a bad vector");
            })).isInstanceOf(IllegalStateException.class).hasMessage("a bad vector");

            assertThat(count(session)).isZero();
        }
    }

    private static void create(DuckDb.Session session) throws SQLException {
        try (DuckDBConnection c = session.connection(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (x INTEGER)");
        }
    }

    private static long count(DuckDb.Session session) throws SQLException {
        try (DuckDBConnection c = session.connection();
                Statement st = c.createStatement();
                var rs = st.executeQuery("SELECT count(*) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }

}
