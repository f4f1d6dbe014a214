package dev.codememory.readers.pending;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;

/**
 * Reads the items a stage has not handled yet. At open it asks DuckDB for the keys of
 * pending work (a query that excludes what the stage's writer has already recorded), then
 * loads each item by key as it is read. Restart needs no saved position: after a crash
 * the same query leaves out whatever the committed chunks finished, and the writers are
 * idempotent for a chunk written twice.
 */
public class PendingItemReader<T> implements ItemStreamReader<T> {

    /** Loads one item by key on a connection. */
    public interface Loader<T> {

        T load(Connection connection, String key) throws SQLException;

    }

    /**
     * Loads the items whose keys are in the temporary table {@value #KEYS_TABLE}
     * ({@code ord INTEGER, key VARCHAR}), in {@code ord} order: one query for a page of
     * items instead of one per item.
     */
    public interface PageLoader<T> {

        List<T> load(Connection connection) throws SQLException;

    }

    /** The temporary table a {@link PageLoader} joins with. */
    public static final String KEYS_TABLE = "temp.main.pending_keys";

    /**
     * A condition on a page loader's item table that holds for every item of the page,
     * given that the pending query's second column is {@code column} of each item: the
     * column lies between the smallest and the largest of the page's values (with no such
     * values, any). Joining with {@value #KEYS_TABLE} alone makes DuckDB read the whole
     * table for each page, so a stage's pages cost it quadratic time (validation read
     * 944,000 candidates for each of their 1,888 pages); with this condition it reads the
     * row groups whose zone maps overlap the page's range, and items are stored roughly
     * in that order (by time).
     */
    public static String withinPage(String column) {
        return column + " BETWEEN coalesce((SELECT min(ts) FROM " + KEYS_TABLE + "), '-infinity'::TIMESTAMP)"
                + " AND coalesce((SELECT max(ts) FROM " + KEYS_TABLE + "), 'infinity'::TIMESTAMP)";
    }

    /** Items per page unless a stage asks for another size. */
    public static final int PAGE = 500;

    private final int pageSize;

    private final Supplier<DuckDBConnection> connections;

    private final String pendingKeysSql;

    private final PageLoader<T> pageLoader;

    private LocalDateTime since;

    private List<String> keys;

    private List<LocalDateTime> times;

    private int next;

    private final java.util.ArrayDeque<T> page = new java.util.ArrayDeque<>();

    /**
     * A reader that loads each pending item by its key ({@code pendingKeysSql}: the keys,
     * in processing order).
     */
    public static <T> PendingItemReader<T> keyed(Supplier<DuckDBConnection> connections, String pendingKeysSql,
            Loader<T> loader) {
        return new PendingItemReader<>(connections, pendingKeysSql, loader);
    }

    /**
     * A reader that loads a page of pending items in one query ({@code pendingKeysSql}:
     * the keys in processing order, and optionally their times).
     */
    public static <T> PendingItemReader<T> paged(Supplier<DuckDBConnection> connections, String pendingKeysSql,
            PageLoader<T> pageLoader) {
        return new PendingItemReader<>(connections, pendingKeysSql, pageLoader);
    }

    /**
     * @param pendingKeysSql a query whose first column is the key, in processing order
     */
    public PendingItemReader(Supplier<DuckDBConnection> connections, String pendingKeysSql, Loader<T> loader) {
        this(connections, pendingKeysSql, PAGE, null, loader);
    }

    /**
     * @param pendingKeysSql a query whose first column is the key, in processing order,
     * and whose optional second column is the item's time that
     * {@link #withinPage(String)} bounds
     */
    public PendingItemReader(Supplier<DuckDBConnection> connections, String pendingKeysSql, PageLoader<T> pageLoader) {
        this(connections, pendingKeysSql, PAGE, pageLoader, null);
    }

    /**
     * @param pageSize items per page: each page is one query of the item table, so a
     * stage whose chunks are larger than {@link #PAGE} reads a chunk in one page
     */
    public PendingItemReader(Supplier<DuckDBConnection> connections, String pendingKeysSql, int pageSize,
            PageLoader<T> pageLoader) {
        this(connections, pendingKeysSql, pageSize, pageLoader, null);
    }

    private PendingItemReader(Supplier<DuckDBConnection> connections, String pendingKeysSql, int pageSize,
            PageLoader<T> pageLoader, Loader<T> loader) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1, was " + pageSize);
        }
        this.connections = connections;
        this.pendingKeysSql = pendingKeysSql;
        this.pageSize = pageSize;
        this.pageLoader = pageLoader != null ? pageLoader : c -> loadOneByOne(c, loader);
    }

    /**
     * Reads only the items whose time (the pending query's second column) is
     * {@code since} or later, leaving the others for a later step: the newest-first pass
     * of a large backlog. Null (the default) reads every pending item.
     */
    public PendingItemReader<T> since(LocalDateTime since) {
        this.since = since;
        return this;
    }

    @Override
    public void open(ExecutionContext executionContext) {
        List<String> pending = new ArrayList<>();
        List<LocalDateTime> pendingTimes = new ArrayList<>();
        try (Connection c = connections.get();
                PreparedStatement ps = c.prepareStatement(pendingKeysSql);
                ResultSet rs = ps.executeQuery()) {
            boolean timed = rs.getMetaData().getColumnCount() > 1;
            if (since != null && !timed) {
                throw new IllegalStateException("a pending query without item times cannot read since " + since);
            }
            while (rs.next()) {
                LocalDateTime time = timed ? rs.getObject(2, LocalDateTime.class) : null;
                if (since == null || time != null && !time.isBefore(since)) {
                    pending.add(rs.getString(1));
                    pendingTimes.add(time);
                }
            }
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot list pending work: " + e.getMessage(), e);
        }
        keys = pending;
        times = pendingTimes;
        next = 0;
        page.clear();
    }

    @Override
    public T read() {
        if (page.isEmpty() && keys != null && next < keys.size()) {
            int end = Math.min(keys.size(), next + pageSize);
            List<String> pageKeys = keys.subList(next, end);
            List<LocalDateTime> pageTimes = times.subList(next, end);
            next = end;
            try (DuckDBConnection c = connections.get()) {
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE OR REPLACE TEMP TABLE pending_keys (ord INTEGER, key VARCHAR, ts TIMESTAMP)");
                }
                try (DuckDBAppender appender = c.createAppender("temp", "main", "pending_keys")) {
                    for (int i = 0; i < pageKeys.size(); i++) {
                        LocalDateTime time = pageTimes.get(i);
                        appender.beginRow().append(i).append(pageKeys.get(i));
                        (time != null ? appender.append(time) : appender.appendNull()).endRow();
                    }
                }
                page.addAll(pageLoader.load(c));
            }
            catch (SQLException e) {
                throw new DatabaseException("cannot load pending items: " + e.getMessage(), e);
            }
        }
        return page.poll();
    }

    private List<T> loadOneByOne(Connection c, Loader<T> loader) throws SQLException {
        List<T> items = new ArrayList<>();
        for (String key : Sql.list(c, "SELECT key FROM " + KEYS_TABLE + " ORDER BY ord", rs -> rs.getString(1))) {
            items.add(loader.load(c, key));
        }
        return items;
    }

    @Override
    public void close() {
        keys = null;
        times = null;
        page.clear();
    }

    /**
     * An empty list for each key of the reader's key table, to fill by its {@code ord}.
     */
    public static <T> List<List<T>> perKey(Connection c) throws SQLException {
        int keys = Sql.first(c, "SELECT count(*) FROM " + KEYS_TABLE, rs -> rs.getInt(1)).orElseThrow();
        List<List<T>> lists = new ArrayList<>(keys);
        for (int i = 0; i < keys; i++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }

}
