package dev.codememory.retrieval.vector.milvus;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import io.milvus.v2.service.vector.response.QueryResp;
import io.milvus.v2.service.vector.response.SearchResp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps between {@link VectorRecord} and Milvus rows: Gson {@link JsonObject}s going in
 * (what {@code UpsertReq} takes), entity maps coming back (what {@code QueryResp} and
 * {@code SearchResp} hold). Pure.
 *
 * <p>
 * {@code ts} is a {@code LocalDateTime} in UTC (the pipeline's convention) stored as
 * epoch milliseconds: anything finer than a millisecond is truncated.
 */
final class MilvusRows {

    static final String COUNT = "count(*)";

    private MilvusRows() {
    }

    /**
     * One row per memory id, the last record winning when an id repeats (Milvus rejects
     * or arbitrarily resolves a primary key twice in one upsert). Every record is checked
     * before any row is built, so a bad one fails the whole call before anything is
     * written.
     */
    static List<JsonObject> toRows(List<VectorRecord> records, int dimension) {
        Map<String, VectorRecord> byId = new LinkedHashMap<>();
        for (VectorRecord r : records) {
            check(r, dimension);
            byId.put(r.memoryId(), r);
        }
        List<JsonObject> rows = new ArrayList<>(byId.size());
        for (VectorRecord r : byId.values()) {
            rows.add(toRow(r));
        }
        return rows;
    }

    static JsonObject toRow(VectorRecord r) {
        JsonObject row = new JsonObject();
        row.addProperty(MilvusSchema.MEMORY_ID, r.memoryId());
        JsonArray vector = new JsonArray(r.vector().length);
        for (float v : r.vector()) {
            vector.add(v);
        }
        row.add(MilvusSchema.VECTOR, vector);
        row.addProperty(MilvusSchema.PROJECT, r.project());
        row.addProperty(MilvusSchema.KIND, r.kind());
        row.addProperty(MilvusSchema.STATUS, r.status());
        row.addProperty(MilvusSchema.TS, epochMillis(r.ts()));
        return row;
    }

    /**
     * A record from a query result's entity (every field requested as an output field).
     */
    static VectorRecord fromEntity(Map<String, Object> entity) {
        List<?> values = (List<?>) required(entity, MilvusSchema.VECTOR);
        float[] vector = new float[values.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = ((Number) values.get(i)).floatValue();
        }
        return new VectorRecord((String) required(entity, MilvusSchema.MEMORY_ID), vector,
                (String) required(entity, MilvusSchema.PROJECT), (String) required(entity, MilvusSchema.KIND),
                (String) required(entity, MilvusSchema.STATUS),
                localDateTime(((Number) required(entity, MilvusSchema.TS)).longValue()));
    }

    /**
     * The hits of a single-query search, in Milvus's order (best first); the score is the
     * cosine similarity.
     */
    static List<VectorHit> hits(SearchResp response) {
        List<List<SearchResp.SearchResult>> perQuery = response.getSearchResults();
        if (perQuery == null || perQuery.isEmpty()) {
            return List.of();
        }
        List<VectorHit> hits = new ArrayList<>(perQuery.get(0).size());
        for (SearchResp.SearchResult result : perQuery.get(0)) {
            hits.add(new VectorHit((String) result.getId(), result.getScore()));
        }
        return hits;
    }

    /** The value of a {@code count(*)} query. */
    static long count(QueryResp response) {
        List<QueryResp.QueryResult> results = response.getQueryResults();
        if (results == null || results.size() != 1) {
            throw new IllegalStateException(
                    "count(*) returned " + (results == null ? 0 : results.size()) + " rows, expected 1");
        }
        return ((Number) required(results.get(0).getEntity(), COUNT)).longValue();
    }

    static long epochMillis(LocalDateTime ts) {
        return ts.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    static LocalDateTime localDateTime(long epochMillis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
    }

    private static void check(VectorRecord r, int dimension) {
        if (r.vector().length != dimension) {
            throw new IllegalArgumentException(
                    "vector of " + r.memoryId() + " has " + r.vector().length + " dimensions, the store " + dimension);
        }
        checkLength(r, MilvusSchema.MEMORY_ID, r.memoryId(), MilvusSchema.MEMORY_ID_MAX_BYTES);
        checkLength(r, MilvusSchema.PROJECT, r.project(), MilvusSchema.PROJECT_MAX_BYTES);
        checkLength(r, MilvusSchema.KIND, r.kind(), MilvusSchema.KIND_MAX_BYTES);
        checkLength(r, MilvusSchema.STATUS, r.status(), MilvusSchema.STATUS_MAX_BYTES);
    }

    /** Milvus VarChar limits count UTF-8 bytes, not characters. */
    private static void checkLength(VectorRecord r, String field, String value, int maxBytes) {
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new IllegalArgumentException(
                    field + " of " + r.memoryId() + " is " + bytes + " UTF-8 bytes, the collection allows " + maxBytes);
        }
    }

    private static Object required(Map<String, Object> entity, String field) {
        Object value = entity.get(field);
        if (value == null) {
            throw new IllegalStateException("Milvus row has no " + field + ": fields " + entity.keySet());
        }
        return value;
    }

}
