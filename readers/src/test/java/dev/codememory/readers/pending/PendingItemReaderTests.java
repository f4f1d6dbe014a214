package dev.codememory.readers.pending;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.batch.infrastructure.item.ExecutionContext;

class PendingItemReaderTests {

    /**
     * Items whose ids are in no order and whose times grow with the row, as stages store
     * them.
     */
    private static final String ITEMS = """
            CREATE TABLE items AS
            SELECT md5(i::VARCHAR) AS id, TIMESTAMP '2026-01-01' + to_seconds(i // 3) AS ts, i AS v
            FROM range(300000) r(i)""";

    private static final PendingItemReader.PageLoader<String> LOADER = c -> {
        List<String> page = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT i.id || ':' || i.v FROM items i JOIN %s p ON p.key = i.id WHERE %s ORDER BY p.ord"""
            .formatted(PendingItemReader.KEYS_TABLE, PendingItemReader.withinPage("i.ts")));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                page.add(rs.getString(1));
            }
        }
        return page;
    };

    private DuckDBConnection primary;

    @BeforeEach
    void createItems() throws SQLException {
        primary = (DuckDBConnection) java.sql.DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = primary.createStatement()) {
            st.execute(ITEMS);
        }
    }

    @AfterEach
    void close() throws SQLException {
        primary.close();
    }

    @Test
    void pagesBoundedByTheirItemsTimesReadEveryPendingItemInOrder() throws SQLException {
        List<String> read = readAll("SELECT id, ts FROM items WHERE v % 7 = 0 ORDER BY ts, id");

        assertThat(read).hasSize(42_858).containsExactlyElementsOf(expected());
    }

    @Test
    void withoutTimesEveryPageIsReadWhole() throws SQLException {
        List<String> read = readAll("SELECT id FROM items WHERE v % 7 = 0 ORDER BY ts, id");

        assertThat(read).hasSize(42_858).containsExactlyElementsOf(expected());
    }

    @Test
    void itemsOfOneTimeSplitAcrossPagesAreAllRead() throws SQLException {
        // every three items share a time; a page of 500 ends inside such a group
        List<String> read = readAll("SELECT id, ts FROM items WHERE v < 3001 ORDER BY ts, id");

        assertThat(read).hasSize(3_001)
            .containsExactlyElementsOf(query("SELECT id || ':' || v FROM items WHERE v < 3001 ORDER BY ts, id"));
    }

    @Test
    void pagesOfAnotherSizeReadTheSameItems() throws SQLException {
        List<String> read = readAll("SELECT id, ts FROM items WHERE v % 7 = 0 ORDER BY ts, id", 5_000);

        assertThat(read).hasSize(42_858).containsExactlyElementsOf(expected());
    }

    @Test
    void sinceReadsOnlyItemsOfThatTimeOrLater() throws SQLException {
        // items 3,000 to 3,008 share times 1,000 s to 1,002 s after the start
        PendingItemReader<String> reader = new PendingItemReader<>(this::duplicate,
                "SELECT id, ts FROM items WHERE v < 3009 ORDER BY ts, id", PendingItemReader.PAGE, LOADER)
            .since(java.time.LocalDateTime.parse("2026-01-01T00:16:40"));
        reader.open(new ExecutionContext());
        List<String> read = new ArrayList<>();
        for (String item = reader.read(); item != null; item = reader.read()) {
            read.add(item);
        }

        assertThat(read).hasSize(9)
            .containsExactlyElementsOf(
                    query("SELECT id || ':' || v FROM items WHERE v BETWEEN 3000 AND 3008 ORDER BY ts, id"));
    }

    @Test
    void sinceNeedsTheItemsTimes() {
        PendingItemReader<String> reader = new PendingItemReader<>(this::duplicate, "SELECT id FROM items",
                PendingItemReader.PAGE, LOADER)
            .since(java.time.LocalDateTime.parse("2026-01-01T00:00:00"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader.open(new ExecutionContext()))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("without item times");
    }

    private List<String> readAll(String pendingSql) {
        return readAll(pendingSql, PendingItemReader.PAGE);
    }

    private List<String> readAll(String pendingSql, int pageSize) {
        PendingItemReader<String> reader = new PendingItemReader<>(this::duplicate, pendingSql, pageSize, LOADER);
        reader.open(new ExecutionContext());
        List<String> read = new ArrayList<>();
        for (String item = reader.read(); item != null; item = reader.read()) {
            read.add(item);
        }
        reader.close();
        return read;
    }

    private List<String> expected() throws SQLException {
        return query("SELECT id || ':' || v FROM items WHERE v % 7 = 0 ORDER BY ts, id");
    }

    private List<String> query(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = primary.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private DuckDBConnection duplicate() {
        try {
            return (DuckDBConnection) primary.duplicate();
        }
        catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

}
