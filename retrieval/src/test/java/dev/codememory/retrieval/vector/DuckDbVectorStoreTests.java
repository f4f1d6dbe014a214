package dev.codememory.retrieval.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbVectorStoreTests {

    private static final EmbeddingVersion V = new EmbeddingVersion("test-model", 4, "mean", 16);

    private static final LocalDateTime T = LocalDateTime.of(2026, 11, 1, 10, 0);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbVectorStore store;

    @BeforeEach
    void open() {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        store = new DuckDbVectorStore(session::connection, V);
        store.ensureReady();
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void searchRanksByCosineAndAppliesEveryFilter() {
        store.upsert(List.of(record("a", new float[] { 1, 0, 0, 0 }, "/p1", "decision", "active", T),
                record("b", unit(1, 1, 0, 0), "/p1", "fact", "active", T.plusDays(1)),
                record("c", new float[] { 0, 1, 0, 0 }, "/p2", "decision", "active", T.plusDays(2)),
                record("d", unit(1, 0.1f, 0, 0), "/p1", "decision", "superseded", T.plusDays(3))));

        assertThat(store.search(new float[] { 1, 0, 0, 0 }, 10, VectorFilter.none())).extracting(VectorHit::memoryId)
            .containsExactly("a", "d", "b", "c");
        assertThat(store.search(new float[] { 1, 0, 0, 0 }, 10, VectorFilter.project("/p1")))
            .extracting(VectorHit::memoryId)
            .containsExactly("a", "b");
        assertThat(store.search(new float[] { 1, 0, 0, 0 }, 10,
                new VectorFilter(null, Set.of("decision"), Set.of(), T.plusDays(1), T.plusDays(3))))
            .extracting(VectorHit::memoryId)
            .containsExactly("c");
        List<VectorHit> top = store.search(new float[] { 1, 0, 0, 0 }, 1, VectorFilter.none());
        assertThat(top).hasSize(1);
        assertThat(top.get(0).score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aHomeWithoutVectorsYetFindsNothingNearRatherThanFailing() {
        DuckDbVectorStore other = new DuckDbVectorStore(session::connection,
                new EmbeddingVersion("never-embedded", 4, "mean", 16));

        assertThat(other.search(new float[] { 1, 0, 0, 0 }, 10, VectorFilter.none())).isEmpty();
    }

    /** What serve's resident vectors read: all of a project's, then only the new ones. */
    @Test
    void readGivesAProjectsVectorsWithAStatusAllOrOnlyTheGivenIds() {
        store.upsert(List.of(record("a", new float[] { 1, 0, 0, 0 }, "/p1", "decision", "active", T),
                record("b", new float[] { 0, 1, 0, 0 }, "/p1", "fact", "active", T.plusDays(1)),
                record("c", new float[] { 0, 0, 1, 0 }, "/p1", "fact", "active", T.plusDays(2)),
                record("d", new float[] { 0, 0, 0, 1 }, "/p1", "fact", "superseded", T.plusDays(3)),
                record("e", new float[] { 1, 1, 0, 0 }, "/p2", "fact", "active", T.plusDays(4))));

        java.util.Map<String, float[]> all = new java.util.LinkedHashMap<>();
        store.read("/p1", "active", null, all::put);
        assertThat(all.keySet()).containsExactly("a", "b", "c");
        assertThat(all.get("b")).containsExactly(0, 1, 0, 0);

        for (int twice = 0; twice < 2; twice++) {
            java.util.Map<String, float[]> some = new java.util.LinkedHashMap<>();
            store.read("/p1", "active", List.of("c", "a", "d", "e", "missing"), some::put);
            assertThat(some.keySet()).containsExactly("a", "c");
            assertThat(some.get("c")).containsExactly(0, 0, 1, 0);
        }
        assertThat(store.vectors(List.of("e", "missing")).keySet()).containsExactly("e");
    }

    @Test
    void upsertReplacesByMemoryIdAndDeleteRemoves() {
        store.upsert(List.of(record("a", new float[] { 1, 0, 0, 0 }, "/p", "fact", "active", T)));
        store.upsert(List.of(record("a", new float[] { 0, 0, 1, 0 }, "/p", "fact", "active", T),
                record("b", new float[] { 0, 1, 0, 0 }, "/p", "fact", "active", T)));

        assertThat(store.count()).isEqualTo(2);
        assertThat(store.search(new float[] { 0, 0, 1, 0 }, 1, VectorFilter.none()).get(0).memoryId()).isEqualTo("a");

        store.delete(List.of("a", "missing"));
        assertThat(store.count()).isEqualTo(1);
        store.clear();
        assertThat(store.count()).isZero();
    }

    @Test
    void wrongDimensionIsRefused() {
        assertThatThrownBy(() -> store.upsert(List.of(record("x", new float[] { 1, 0 }, "/p", "fact", "active", T))))
            .hasMessageContaining("has 2 dimensions, the store 4");
        assertThatThrownBy(() -> store.search(new float[] { 1 }, 3, VectorFilter.none()))
            .hasMessageContaining("query has 1 dimensions");
    }

    static VectorRecord record(String id, float[] v, String project, String kind, String status, LocalDateTime ts) {
        return new VectorRecord(id, v, project, kind, status, ts);
    }

    static float[] unit(float... v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / Math.sqrt(n));
        }
        return out;
    }

}
