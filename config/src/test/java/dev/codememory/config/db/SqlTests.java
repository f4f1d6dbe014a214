package dev.codememory.config.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Sql} on a real DuckDB: binding, mapping, the empty case and errors. */
class SqlTests {

    @Test
    void bindsInOrderAndMapsEveryRow() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            Sql.update(c, "CREATE TABLE t (id INTEGER, name VARCHAR, ts TIMESTAMP)");
            LocalDateTime noon = LocalDateTime.of(2026, 5, 4, 12, 0);

            assertThat(Sql.update(c, "INSERT INTO t VALUES (?, ?, ?), (?, ?, ?)", 1, "one", noon, 2, null,
                    noon.plusDays(1)))
                .isEqualTo(2);
            assertThat(Sql.list(c, "SELECT id, name FROM t WHERE ts >= ? ORDER BY id",
                    rs -> rs.getInt(1) + "=" + rs.getString(2), noon))
                .containsExactly("1=one", "2=null");
            assertThat(Sql.list(c, "SELECT id FROM t WHERE CAST(? AS TIMESTAMP) IS NULL OR ts > ? ORDER BY id",
                    rs -> rs.getInt(1), null, null))
                .containsExactly(1, 2);
            assertThat(
                    Sql.first(c, "SELECT ts FROM t WHERE name = ?", rs -> rs.getObject(1, LocalDateTime.class), "one"))
                .contains(noon);
            assertThat(Sql.first(c, "SELECT id FROM t WHERE name = ?", rs -> rs.getInt(1), "none")).isEmpty();
            assertThat(Sql.update(c, "DELETE FROM t WHERE id = ?", 3)).isZero();
            StringBuilder names = new StringBuilder();
            Sql.each(c, "SELECT coalesce(name, '-') FROM t WHERE id <= ? ORDER BY id DESC",
                    rs -> names.append(rs.getString(1)).append(' '), 2);
            assertThat(names).hasToString("- one ");
        }
    }

    @Test
    void aBadStatementIsTheDriversErrorAndLeavesNothingOpen() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThatThrownBy(() -> Sql.list(c, "SELECT * FROM missing WHERE x = ?", rs -> 1, 1))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("missing");
            assertThatThrownBy(() -> Sql.update(c, "SELECT ?", 1, 2)).isInstanceOf(SQLException.class);
            assertThat(Sql.first(c, "SELECT 42", rs -> rs.getInt(1))).contains(42);
        }
    }

    @Test
    void aBatchRunsTheStatementOncePerItemAndNothingForNone() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            Sql.update(c, "CREATE TABLE t (id INTEGER, name VARCHAR)");

            assertThat(Sql.batch(c, "INSERT INTO t VALUES (?, ?)", List.of("a", "bb", "ccc"),
                    name -> new Object[] { name.length(), name }))
                .containsExactly(1, 1, 1);
            assertThat(Sql.batch(c, "DELETE FROM t WHERE id = ?", List.<Integer>of(), id -> new Object[] { id }))
                .isEmpty();
            assertThat(Sql.batch(c, "UPDATE t SET name = upper(name) WHERE id >= ?", List.of(2, 9),
                    id -> new Object[] { id }))
                .containsExactly(2, 0);
            assertThat(Sql.list(c, "SELECT id, name FROM t ORDER BY id", rs -> rs.getInt(1) + "=" + rs.getString(2)))
                .containsExactly("1=a", "2=BB", "3=CCC");
        }
    }

    @Test
    void aTableMadeFromAQueryTakesParameters() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            Sql.update(c, "CREATE TEMP TABLE picked AS SELECT range AS n FROM range(10) WHERE range < ?", 3);

            assertThat(Sql.list(c, "SELECT n FROM temp.main.picked ORDER BY n", rs -> rs.getLong(1)))
                .containsExactly(0L, 1L, 2L);
        }
    }

}
