package dev.codememory.config.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * The transaction every writer runs its work in: one commit path and one failure path.
 */
public final class Transactions {

    private Transactions() {
    }

    /** Work on a connection, inside a transaction. */
    @FunctionalInterface
    public interface Work<C extends Connection, T> {

        T apply(C connection) throws SQLException;

    }

    /**
     * Takes a connection, runs {@code work} in one transaction and commits it, and closes
     * the connection; returns what {@code work} returned. On failure the transaction is
     * rolled back ({@link #rollback}) and the failure rethrown, an {@link SQLException}
     * as a {@link DatabaseException} saying "cannot {@code what}: " and DuckDB's message.
     */
    public static <C extends Connection, T> T inTransaction(Supplier<? extends C> connections, Supplier<String> what,
            Work<C, T> work) {
        try (C connection = connections.get()) {
            return commit(connection, work);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot " + what.get() + ": " + e.getMessage(), e);
        }
    }

    /** {@link #inTransaction} on a connection the caller holds and closes. */
    public static <C extends Connection, T> T commit(C connection, Work<C, T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.apply(connection);
            connection.commit();
            return result;
        }
        catch (SQLException | RuntimeException e) {
            rollback(connection, e);
            throw e;
        }
    }

    /**
     * Rolls back {@code connection}'s transaction after {@code failure}, which the caller
     * then rethrows. A rollback that fails too is added to {@code failure} as suppressed,
     * never thrown in its place: DuckDB ends a transaction by itself on some errors (a
     * full disk, for one), and its "cannot rollback - no transaction is active" would
     * otherwise be all the user is told.
     */
    public static void rollback(Connection connection, Exception failure) {
        try {
            connection.rollback();
        }
        catch (SQLException | RuntimeException rollback) {
            failure.addSuppressed(rollback);
        }
    }

}
