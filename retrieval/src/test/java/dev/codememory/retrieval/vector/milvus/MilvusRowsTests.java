package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import io.milvus.v2.service.vector.response.QueryResp;
import io.milvus.v2.service.vector.response.SearchResp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MilvusRowsTests {

    /** 2023-11-14T22:13:20.123Z */
    private static final LocalDateTime TS = LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_000_000);

    private static VectorRecord record(String id, float... vector) {
        return new VectorRecord(id, vector, "/home/me/app", "decision", "active", TS);
    }

    @Test
    void mapsARecordToARowWithEveryField() {
        JsonObject row = MilvusRows.toRow(record("m-1", 0.25f, -0.5f, 1.0f));

        assertThat(row).hasToString("{\"memory_id\":\"m-1\",\"vector\":[0.25,-0.5,1.0],\"project\":\"/home/me/app\","
                + "\"kind\":\"decision\",\"status\":\"active\",\"ts\":1700000000123}");
    }

    @Test
    void keepsEveryFloatOfTheVectorExactly() {
        float[] vector = { 0.1f, -0.333333f, 1.0e-7f, Float.MIN_VALUE, 3.4028235e38f };

        JsonObject row = MilvusRows.toRow(record("m-1", vector));

        float[] stored = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            stored[i] = row.getAsJsonArray("vector").get(i).getAsFloat();
        }
        assertThat(stored).containsExactly(vector);
    }

    @Test
    void mapsAQueriedEntityBackToTheRecord() {
        Map<String, Object> entity = Map.of("memory_id", "m-7", "vector", List.of(0.5f, -0.25f), "project", "/p",
                "kind", "fact", "status", "superseded", "ts", 1700000000123L);

        VectorRecord r = MilvusRows.fromEntity(entity);

        assertThat(r.memoryId()).isEqualTo("m-7");
        assertThat(r.vector()).containsExactly(0.5f, -0.25f);
        assertThat(r.project()).isEqualTo("/p");
        assertThat(r.kind()).isEqualTo("fact");
        assertThat(r.status()).isEqualTo("superseded");
        assertThat(r.ts()).isEqualTo(TS);
    }

    @Test
    void readsBackWhatItWrites() {
        VectorRecord original = new VectorRecord("m-\"1\\", new float[] { 0.1f, 0.2f, -0.3f }, "/日本/\"x\"", "task",
                "blocked", TS);

        VectorRecord back = MilvusRows.fromEntity(asEntity(MilvusRows.toRow(original)));

        assertThat(back.memoryId()).isEqualTo(original.memoryId());
        assertThat(back.vector()).containsExactly(original.vector());
        assertThat(back.project()).isEqualTo(original.project());
        assertThat(back.kind()).isEqualTo(original.kind());
        assertThat(back.status()).isEqualTo(original.status());
        assertThat(back.ts()).isEqualTo(original.ts());
    }

    @Test
    void truncatesTimesFinerThanAMillisecond() {
        LocalDateTime fine = LocalDateTime.of(2023, 11, 14, 22, 13, 20, 123_456_789);

        long millis = MilvusRows.epochMillis(fine);

        assertThat(millis).isEqualTo(1_700_000_000_123L);
        assertThat(MilvusRows.localDateTime(millis)).isEqualTo(TS);
    }

    @Test
    void keepsOneRowPerMemoryIdWithTheLastRecordWinning() {
        List<JsonObject> rows = MilvusRows
            .toRows(List.of(record("m-1", 1f, 0f), record("m-2", 0f, 1f), record("m-1", 0.5f, 0.5f)), 2);

        assertThat(rows).extracting(row -> row.get("memory_id").getAsString()).containsExactly("m-1", "m-2");
        assertThat(rows.get(0).getAsJsonArray("vector")).hasToString("[0.5,0.5]");
    }

    @Test
    void rejectsAVectorOfTheWrongDimension() {
        List<VectorRecord> records = List.of(record("m-1", 1f, 0f, 0f), record("m-2", 1f, 0f));

        assertThatIllegalArgumentException().isThrownBy(() -> MilvusRows.toRows(records, 3))
            .withMessage("vector of m-2 has 2 dimensions, the store 3");
    }

    @Test
    void rejectsValuesLongerThanTheirColumnCountingUtf8Bytes() {
        String project = "日".repeat(342);
        VectorRecord wideProject = new VectorRecord("m-1", new float[] { 1f }, project, "fact", "active", TS);
        VectorRecord longId = record("i".repeat(129), 1f);
        VectorRecord longKind = new VectorRecord("m-3", new float[] { 1f }, "/p", "k".repeat(33), "active", TS);
        VectorRecord longStatus = new VectorRecord("m-4", new float[] { 1f }, "/p", "fact", "s".repeat(33), TS);

        assertThat(project).hasSize(342);
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusRows.toRows(List.of(wideProject), 1))
            .withMessage("project of m-1 is 1026 UTF-8 bytes, the collection allows 1024");
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusRows.toRows(List.of(longId), 1))
            .withMessageEndingWith(" is 129 UTF-8 bytes, the collection allows 128");
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusRows.toRows(List.of(longKind), 1))
            .withMessage("kind of m-3 is 33 UTF-8 bytes, the collection allows 32");
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusRows.toRows(List.of(longStatus), 1))
            .withMessage("status of m-4 is 33 UTF-8 bytes, the collection allows 32");
    }

    @Test
    void acceptsValuesExactlyAtTheirColumnLimits() {
        VectorRecord atLimits = new VectorRecord("i".repeat(128), new float[] { 1f }, "p".repeat(1024), "k".repeat(32),
                "s".repeat(32), TS);

        assertThat(MilvusRows.toRows(List.of(atLimits), 1)).hasSize(1);
    }

    @Test
    void mapsSearchResultsToHitsBestFirst() {
        SearchResp response = SearchResp.builder()
            .searchResults(List.of(List.of(SearchResp.SearchResult.builder().id("m-2").score(0.75f).build(),
                    SearchResp.SearchResult.builder().id("m-1").score(-0.25f).build())))
            .build();

        assertThat(MilvusRows.hits(response)).containsExactly(new VectorHit("m-2", 0.75), new VectorHit("m-1", -0.25));
    }

    @Test
    void mapsAnEmptySearchToNoHits() {
        assertThat(MilvusRows.hits(SearchResp.builder().searchResults(List.of(List.of())).build())).isEmpty();
        assertThat(MilvusRows.hits(SearchResp.builder().searchResults(List.of()).build())).isEmpty();
    }

    @Test
    void readsTheCountOfACountQuery() {
        QueryResp response = QueryResp.builder()
            .queryResults(List.of(QueryResp.QueryResult.builder().entity(Map.of("count(*)", 42L)).build()))
            .build();

        assertThat(MilvusRows.count(response)).isEqualTo(42L);
    }

    /**
     * A row as the SDK hands it back from a query: vector as a list of floats, ts as a
     * long.
     */
    private static Map<String, Object> asEntity(JsonObject row) {
        Map<String, Object> entity = new HashMap<>();
        for (Map.Entry<String, JsonElement> e : row.entrySet()) {
            if (e.getValue().isJsonArray()) {
                List<Float> floats = new ArrayList<>();
                e.getValue().getAsJsonArray().forEach(f -> floats.add(f.getAsFloat()));
                entity.put(e.getKey(), floats);
            }
            else if (e.getKey().equals("ts")) {
                entity.put(e.getKey(), e.getValue().getAsLong());
            }
            else {
                entity.put(e.getKey(), e.getValue().getAsString());
            }
        }
        return entity;
    }

}
