package dev.codememory.writers.staging;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

class StagingTests {

    @Test
    void notStoredKeepsTheStagedRowsWhoseKeyNoStoredRowHas() throws SQLException {
        try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE stored (id VARCHAR, kind VARCHAR)");
            st.execute("INSERT INTO stored VALUES ('a', 'x'), ('b', 'y'), (NULL, 'x')");
            try (DuckDBAppender staged = Staging.table(c, "staged", "id VARCHAR, n INTEGER")) {
                staged.beginRow().append("a").append(1).endRow();
                staged.beginRow().append("b").append(2).endRow();
                staged.beginRow().append("c").append(3).endRow();
            }

            assertThat(ids(st, Staging.notStored("s.id", "stored", "id", "", "staged"))).containsExactly("c:3");
            assertThat(ids(st, Staging.notStored("s.id", "stored", "id", "kind = 'x'", "staged")))
                .containsExactly("b:2", "c:3");
        }
    }

    private static List<String> ids(Statement st, String condition) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = st
            .executeQuery("SELECT s.id || ':' || s.n FROM temp.main.staged s WHERE " + condition + " ORDER BY s.n")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

}
