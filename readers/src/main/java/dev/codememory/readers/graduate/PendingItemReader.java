package dev.codememory.readers.graduate;

import dev.codememory.config.db.DatabaseException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the items a stage has not handled yet. At open it asks DuckDB for the keys of pending work (a query that
 * excludes what the stage's writer has already recorded), then loads each item by key as it is read. Restart
 * needs no saved position: after a crash the same query leaves out whatever the committed chunks finished, and
 * the writers are idempotent for a chunk written twice.
 */
public class PendingItemReader<T> implements ItemStreamReader<T> {

    /** Loads one item by key on a connection. */
    public interface Loader<T> {
        T load(Connection connection, String key) throws SQLException;
    }

    private final Supplier<DuckDBConnection> connections;
    private final String pendingKeysSql;
    private final Loader<T> loader;
    private Iterator<String> keys;

    /** @param pendingKeysSql a query whose first column is the key, in processing order */
    public PendingItemReader(Supplier<DuckDBConnection> connections, String pendingKeysSql, Loader<T> loader) {
        this.connections = connections;
        this.pendingKeysSql = pendingKeysSql;
        this.loader = loader;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        List<String> pending = new ArrayList<>();
        try (Connection c = connections.get(); PreparedStatement ps = c.prepareStatement(pendingKeysSql);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                pending.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot list pending work: " + e.getMessage(), e);
        }
        keys = pending.iterator();
    }

    @Override
    public T read() {
        if (keys == null || !keys.hasNext()) {
            return null;
        }
        String key = keys.next();
        try (Connection c = connections.get()) {
            return loader.load(c, key);
        } catch (SQLException e) {
            throw new DatabaseException("cannot load " + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        keys = null;
    }
}
