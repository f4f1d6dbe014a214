package dev.codememory.writers.staging;

import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Per-connection temporary tables that a writer fills through DuckDB's Appender (hundreds
 * of thousands of rows a second, where row-by-row JDBC manages about two thousand) before
 * applying them to the real tables in set-based statements.
 */
public final class Staging {

    private Staging() {
    }

    /**
     * Creates (if needed) and empties {@code temp.main.name}, then opens an appender on
     * it.
     */
    public static DuckDBAppender table(DuckDBConnection c, String name, String columns) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE IF NOT EXISTS " + name + " (" + columns + ")");
            st.execute("DELETE FROM temp.main." + name);
        }
        return c.createAppender("temp", "main", name);
    }

    public static void execute(DuckDBConnection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
