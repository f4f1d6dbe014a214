package dev.codememory.config.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A query as its SQL, its parameters and a row mapper: the statement, the binding and the
 * result loop written once. JDK only, so the hook's path may use it too; where Spring is
 * at hand it reads like {@code JdbcClient}, on the caller's connection and inside the
 * caller's transaction.
 *
 * <p>
 * Parameters are bound in order with {@link PreparedStatement#setObject}: strings,
 * numbers, booleans, {@code LocalDate}, {@code LocalDateTime}, {@code Timestamp}, a
 * {@link java.sql.Array} made by {@link Connection#createArrayOf} and {@code null}, as
 * DuckDB's and PostgreSQL's drivers take them. {@link #batch} runs one statement for many
 * items.
 *
 * <p>
 * What this does not cover uses JDBC directly, and these are the places:
 * <ul>
 * <li>DuckDB's Appender, for bulk rows into a table or a staging table ({@code Staging},
 * {@code PendingItemReader}'s page keys, the ingest, candidate, entry, evidence, graph,
 * summary, topic, session, injection, distilled and vector writers): rows go in as
 * columns, with no SQL and no statement per row;</li>
 * <li>{@code PendingItemReader.open}: reads the pending query's column count (a query
 * with item times or without) from the result's metadata;</li>
 * <li>{@code PostgresTeamStore.upsert}: three PostgreSQL statements in one transaction,
 * two of them batches whose rows are added together, the quotes after their memory;</li>
 * <li>{@code TeamMemoryQueries.memories}: a PostgreSQL fetch size, so the team's memories
 * stream to the reader instead of arriving as one result;</li>
 * <li>statements with no parameter and no result (a temporary table made or dropped, a
 * table cleared), run on a plain {@link java.sql.Statement}.</li>
 * </ul>
 */
public final class Sql {

    private Sql() {
    }

    /** Reads one result row. */
    @FunctionalInterface
    public interface Row<T> {

        T read(ResultSet rs) throws SQLException;

    }

    /** Takes one result row (into a map, a list per key, …). */
    @FunctionalInterface
    public interface RowAction {

        void accept(ResultSet rs) throws SQLException;

    }

    /** Every row of the query, read by {@code row}, in the order the query gives. */
    public static <T> List<T> list(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.read(rs));
            }
            return rows;
        }
    }

    /** The first row of the query, read by {@code row}; empty when there is none. */
    public static <T> Optional<T> first(Connection c, String sql, Row<T> row, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.ofNullable(row.read(rs)) : Optional.empty();
        }
    }

    /** Hands every row of the query to {@code action}, in the order the query gives. */
    public static void each(Connection c, String sql, RowAction action, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                action.accept(rs);
            }
        }
    }

    /** One item's parameters, in the order of the statement's {@code ?}. */
    @FunctionalInterface
    public interface Params<T> {

        Object[] of(T item) throws SQLException;

    }

    /** Runs an insert, update or delete; the number of rows it changed. */
    public static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return ps.executeUpdate();
        }
    }

    /**
     * Runs one statement once per item, as a JDBC batch: one prepared statement, each
     * item's parameters from {@code params}; the number of rows each changed. Nothing
     * runs when there is no item.
     */
    public static <T> int[] batch(Connection c, String sql, Iterable<? extends T> items, Params<? super T> params)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            boolean any = false;
            for (T item : items) {
                bind(ps, params.of(item));
                ps.addBatch();
                any = true;
            }
            return any ? ps.executeBatch() : new int[0];
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            bind(ps, params);
            return ps;
        }
        catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }

}
