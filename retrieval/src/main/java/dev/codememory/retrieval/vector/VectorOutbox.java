package dev.codememory.retrieval.vector;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.vector.EmbeddedKinds;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Decides what the vector index of one embedding version should hold: every verified,
 * active memory of a kind that gets a vector ({@link EmbeddedKinds}) is queued for upsert
 * once (again, if it was removed and is active once more); a memory that has since been
 * superseded, is no longer verified, is of a kind no longer embedded or no longer exists
 * (graduation rebuilt its rows under new rules) is queued for deletion. The index itself
 * is only ever written by {@link VectorOutboxWriter}.
 */
public class VectorOutbox {

    public static final int MAX_ATTEMPTS = 3;

    /** Which entries get a vector, as a condition on {@code entries}. */
    static final String EMBEDDED = "stage = 'verified' AND status = 'active' AND " + EmbeddedKinds.SQL;

    private final Supplier<DuckDBConnection> connections;

    public VectorOutbox(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /** Queues new memories and removals; returns how many rows changed. */
    public int queue(String version) {
        return Transactions.inTransaction(connections, () -> "queue vectors for " + version, c -> {
            int changed = Sql.update(c, """
                    INSERT INTO vector_outbox (memory_id, embedding_version, op, status, attempts, error, updated_at)
                    SELECT entry_id, ?, 'upsert', 'pending', 0, NULL, now() AT TIME ZONE 'UTC' FROM entries
                    WHERE %s
                      AND NOT EXISTS (SELECT 1 FROM vector_outbox o WHERE o.memory_id = entries.entry_id
                                      AND o.embedding_version = ?)""".formatted(EMBEDDED), version, version);
            changed += Sql.update(c, """
                    UPDATE vector_outbox SET op = 'upsert', status = 'pending', attempts = 0, error = NULL,
                        updated_at = now() AT TIME ZONE 'UTC'
                    WHERE embedding_version = ? AND op = 'delete'
                      AND memory_id IN (SELECT entry_id FROM entries WHERE %s)""".formatted(EMBEDDED), version);
            changed += Sql.update(c, """
                    UPDATE vector_outbox SET op = 'delete', status = 'pending', attempts = 0, error = NULL,
                        updated_at = now() AT TIME ZONE 'UTC'
                    WHERE embedding_version = ? AND op = 'upsert'
                      AND memory_id NOT IN (SELECT entry_id FROM entries WHERE %s)""".formatted(EMBEDDED), version);
            return changed;
        });
    }

    /**
     * Forgets everything about a version (reindex rebuilds it from scratch), then queues
     * it anew.
     */
    public int rebuild(String version) {
        try (Connection c = connections.get()) {
            Sql.update(c, "DELETE FROM vector_outbox WHERE embedding_version = ?", version);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot reset the vector outbox for " + version + ": " + e.getMessage(), e);
        }
        return queue(version);
    }

    /**
     * How many memories wait for their vectors of {@code version} (what
     * {@link #pendingSql} lists).
     */
    public static long pendingCount(Connection c, String version) {
        try {
            return Sql.first(c, "SELECT count(*) FROM (" + pendingSql(version) + ")", rs -> rs.getLong(1))
                .orElseThrow();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot count pending vectors: " + e.getMessage(), e);
        }
    }

    /**
     * The keys of pending work for the reader: removals first (they cost nothing), then
     * memories newest first, so after importing months of history the recent weeks have
     * vectors within minutes while the rest follows; ties by id, a stable order.
     * {@code version} is an id of [a-z0-9_].
     */
    public static String pendingSql(String version) {
        if (!version.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("not an embedding version id: " + version);
        }
        return "SELECT o.memory_id FROM vector_outbox o LEFT JOIN entries e ON e.entry_id = o.memory_id"
                + " WHERE o.embedding_version = '" + version + "' AND (o.status = 'pending'"
                + " OR (o.status = 'failed' AND o.attempts < " + MAX_ATTEMPTS + "))"
                + " ORDER BY o.op = 'upsert', e.created_ts DESC NULLS FIRST, o.memory_id";
    }

}
