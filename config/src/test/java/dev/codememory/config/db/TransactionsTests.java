package dev.codememory.config.db;

import static org.assertj.core.api.Assertions.assertThat;

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
                DuckDBConnection c = session.connection(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("CREATE TABLE t (x INTEGER)");
            st.execute("ROLLBACK"); // the transaction ends behind JDBC's back, as DuckDB ends it on a full disk
            SQLException failure = new SQLException("No space left on device");

            Transactions.rollback(c, failure);

            assertThat(failure.getMessage()).isEqualTo("No space left on device");
            assertThat(failure.getSuppressed()).singleElement().satisfies(
                    s -> assertThat(s.getMessage()).contains("no transaction is active"));
        }
    }

    @Test
    void aRollbackThatWorksUndoesTheTransactionAndAddsNothing() throws Exception {
        try (DuckDb.Session session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
                DuckDBConnection c = session.connection(); Statement st = c.createStatement()) {
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
}
