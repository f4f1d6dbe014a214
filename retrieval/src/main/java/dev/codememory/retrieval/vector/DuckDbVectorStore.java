package dev.codememory.retrieval.vector;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.writers.staging.Staging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The default vector store: a {@code FLOAT[dim]} table per embedding version inside
 * memory.duckdb, searched by exact cosine similarity with the filters in SQL. Upserts go
 * through the Appender (native bulk; row-by-row JDBC for vectors is ~50x slower) into a
 * staging table and replace rows by memory id in one transaction.
 */
public class DuckDbVectorStore implements VectorStore {

    private final Supplier<DuckDBConnection> connections;

    private final EmbeddingVersion version;

    private final String table;

    public DuckDbVectorStore(Supplier<DuckDBConnection> connections, EmbeddingVersion version) {
        this.connections = connections;
        this.version = version;
        this.table = "vectors_" + version.id();
    }

    @Override
    public EmbeddingVersion version() {
        return version;
    }

    public String table() {
        return table;
    }

    @Override
    public void ensureReady() {
        run("create " + table, c -> {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE IF NOT EXISTS " + table + " (memory_id VARCHAR PRIMARY KEY, vector FLOAT["
                        + version.dimension() + "] NOT NULL, project VARCHAR NOT NULL, kind VARCHAR NOT NULL,"
                        + " status VARCHAR NOT NULL, ts TIMESTAMP NOT NULL)");
            }
            return null;
        });
    }

    @Override
    public void upsert(List<VectorRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        run("upsert into " + table, connection -> Transactions.commit(connection, c -> {
            try (DuckDBAppender appender = Staging.table(c, "stage_vectors", "memory_id VARCHAR, vector FLOAT["
                    + version.dimension() + "], project VARCHAR, kind VARCHAR, status VARCHAR, ts TIMESTAMP")) {
                for (VectorRecord r : records) {
                    if (r.vector().length != version.dimension()) {
                        throw new IllegalArgumentException("vector of " + r.memoryId() + " has " + r.vector().length
                                + " dimensions, the store " + version.dimension());
                    }
                    appender.beginRow()
                        .append(r.memoryId())
                        .append(r.vector())
                        .append(r.project())
                        .append(r.kind())
                        .append(r.status())
                        .append(r.ts())
                        .endRow();
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute(
                        "DELETE FROM " + table + " WHERE memory_id IN (SELECT memory_id FROM temp.main.stage_vectors)");
                st.execute("INSERT INTO " + table + " SELECT DISTINCT ON (memory_id) * FROM temp.main.stage_vectors");
            }
            return null;
        }));
    }

    @Override
    public void delete(Collection<String> memoryIds) {
        if (memoryIds.isEmpty()) {
            return;
        }
        run("delete from " + table, c -> {
            Sql.batch(c, "DELETE FROM " + table + " WHERE memory_id = ?", memoryIds, id -> new Object[] { id });
            return null;
        });
    }

    @Override
    public List<VectorHit> search(float[] query, int topK, VectorFilter filter) {
        if (query.length != version.dimension()) {
            throw new IllegalArgumentException(
                    "query has " + query.length + " dimensions, the store " + version.dimension());
        }
        StringBuilder sql = new StringBuilder("SELECT memory_id, array_cosine_similarity(vector, ?::FLOAT["
                + version.dimension() + "]) AS score FROM " + table + " WHERE TRUE");
        List<Object> params = new ArrayList<>();
        if (filter.project() != null) {
            sql.append(" AND project = ?");
            params.add(filter.project());
        }
        appendIn(sql, params, "kind", filter.kinds());
        appendIn(sql, params, "status", filter.statuses());
        if (filter.from() != null) {
            sql.append(" AND ts >= ?");
            params.add(Timestamp.valueOf(filter.from()));
        }
        if (filter.to() != null) {
            sql.append(" AND ts < ?");
            params.add(Timestamp.valueOf(filter.to()));
        }
        sql.append(" ORDER BY score DESC, memory_id LIMIT ?");
        return run("search " + table, c -> {
            Float[] boxed = new Float[query.length];
            for (int i = 0; i < query.length; i++) {
                boxed[i] = query[i];
            }
            List<Object> bound = new ArrayList<>();
            bound.add(c.createArrayOf("FLOAT", boxed));
            bound.addAll(params);
            bound.add(topK);
            try {
                return Sql.list(c, sql.toString(), rs -> new VectorHit(rs.getString(1), rs.getDouble(2)),
                        bound.toArray());
            }
            catch (SQLException e) {
                // a home that never graduated has no vectors yet: nothing is near
                if (!exists(c)) {
                    return List.of();
                }
                throw e;
            }
        });
    }

    /** Whether this version's table was made (by the first embedding of a graduation). */
    private boolean exists(DuckDBConnection c) throws SQLException {
        return Sql.first(c, "SELECT count(*) FROM duckdb_tables() WHERE table_name = ?", rs -> rs.getLong(1), table)
            .orElse(0L) > 0;
    }

    /** The projects that hold vectors with this status. */
    public java.util.Set<String> projects(String status) {
        return run("read projects of " + table, c -> {
            return new java.util.TreeSet<>(
                    Sql.list(c, "SELECT DISTINCT project FROM " + table + " WHERE status = ? AND project IS NOT NULL",
                            rs -> rs.getString(1), status));
        });
    }

    /** The ids of a project's vectors with this status. */
    public java.util.Set<String> ids(String project, String status) {
        return run("read ids of " + table, c -> {
            return new java.util.HashSet<>(
                    Sql.list(c, "SELECT memory_id FROM " + table + " WHERE project = ? AND status = ?",
                            rs -> rs.getString(1), project, status));
        });
    }

    /**
     * A project's vectors with this status, as (memory id, vector) — all of them, or only
     * those of {@code memoryIds} when it is not null — for a reader that keeps them in
     * memory.
     */
    public void read(String project, String status, Collection<String> memoryIds,
            java.util.function.BiConsumer<String, float[]> sink) {
        run("read " + table, c -> {
            StringBuilder sql = new StringBuilder(
                    "SELECT memory_id, vector FROM " + table + " WHERE project = ? AND status = ?");
            if (memoryIds != null) {
                try (DuckDBAppender ids = Staging.table(c, "read_vector_ids", "memory_id VARCHAR")) {
                    for (String id : memoryIds) {
                        ids.beginRow().append(id).endRow();
                    }
                }
                sql.append(" AND memory_id IN (SELECT memory_id FROM temp.main.read_vector_ids)");
            }
            sql.append(" ORDER BY ts, memory_id");
            Sql.each(c, sql.toString(), rs -> {
                Object[] values = (Object[]) rs.getArray(2).getArray();
                float[] vector = new float[values.length];
                for (int i = 0; i < values.length; i++) {
                    vector[i] = ((Number) values[i]).floatValue();
                }
                sink.accept(rs.getString(1), vector);
            }, project, status);
            return null;
        });
    }

    private static void appendIn(StringBuilder sql, List<Object> params, String column, Collection<String> values) {
        if (values.isEmpty()) {
            return;
        }
        sql.append(" AND ").append(column).append(" IN (");
        int n = 0;
        for (String v : values) {
            sql.append(n++ == 0 ? "?" : ", ?");
            params.add(v);
        }
        sql.append(')');
    }

    @Override
    public long count() {
        return run("count " + table, c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Override
    public java.util.Map<String, float[]> vectors(Collection<String> memoryIds) {
        java.util.Map<String, float[]> out = new java.util.HashMap<>();
        if (memoryIds.isEmpty()) {
            return out;
        }
        return run("read " + table, c -> {
            try (DuckDBAppender appender = Staging.table(c, "wanted_vectors", "memory_id VARCHAR")) {
                for (String id : memoryIds) {
                    appender.beginRow().append(id).endRow();
                }
            }
            Sql.each(c, "SELECT v.memory_id, v.vector FROM " + table
                    + " v JOIN temp.main.wanted_vectors w USING (memory_id)", rs -> {
                        Object[] values = (Object[]) rs.getArray(2).getArray();
                        float[] vector = new float[values.length];
                        for (int i = 0; i < vector.length; i++) {
                            vector[i] = ((Number) values[i]).floatValue();
                        }
                        out.put(rs.getString(1), vector);
                    });
            return out;
        });
    }

    @Override
    public void clear() {
        run("clear " + table, c -> {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table);
            }
            return null;
        });
        ensureReady();
    }

    private interface Work<T> {

        T run(DuckDBConnection c) throws SQLException;

    }

    private <T> T run(String what, Work<T> work) {
        try (DuckDBConnection c = connections.get()) {
            return work.run(c);
        }
        catch (SQLException e) {
            throw new VectorStoreException("duckdb vector store: cannot " + what + ": " + e.getMessage(), e);
        }
    }

}
