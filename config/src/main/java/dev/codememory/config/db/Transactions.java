package dev.codememory.config.db;

import java.sql.Connection;
import java.sql.SQLException;

/** The failure path every writer's transaction shares. */
public final class Transactions {

    private Transactions() {
    }

    /**
     * Rolls back {@code connection}'s transaction after {@code failure}, which the caller then rethrows. A rollback
     * that fails too is added to {@code failure} as suppressed, never thrown in its place: DuckDB ends a transaction
     * by itself on some errors (a full disk, for one), and its "cannot rollback - no transaction is active" would
     * otherwise be all the user is told.
     */
    public static void rollback(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException rollback) {
            failure.addSuppressed(rollback);
        }
    }
}
