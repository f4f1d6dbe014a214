package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStoreException;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MilvusVectorStore} against a real server: {@code MILVUS_URI} (e.g.
 * {@code http://localhost:19530} after
 * {@code docker compose -f docker-compose.milvus.yml up -d}), optionally
 * {@code MILVUS_TOKEN} and {@code MILVUS_DATABASE}; in CI, Milvus Lite started by
 * {@code .ci/run}. Skipped without {@code MILVUS_URI}, failed without it on CI
 * ({@code CI=true}). Each test owns a fresh collection (a random embedding version) and
 * drops it afterwards.
 */
class MilvusVectorStoreIntegrationTests {

    private static final LocalDateTime T0 = LocalDateTime.of(2024, 3, 1, 12, 0, 0, 123_000_000);

    private static final double EPSILON = 1e-5;

    private MilvusVectorStore store;

    @BeforeEach
    void connect() {
        EmbeddingVersion version = new EmbeddingVersion("it-" + UUID.randomUUID(), 4, "none", 64);
        store = MilvusVectorStore.connect(new MilvusSettings(MilvusTestServer.uri(), System.getenv("MILVUS_TOKEN"),
                System.getenv("MILVUS_DATABASE")), version);
        store.ensureReady();
    }

    @AfterEach
    void dropCollection() {
        if (store == null) {
            return; // skipped before connecting: no server
        }
        try {
            store.drop();
        }
        finally {
            store.close();
        }
    }

    private static VectorRecord record(String id, String project, String kind, String status, LocalDateTime ts,
            float... vector) {
        return new VectorRecord(id, vector, project, kind, status, ts);
    }

    @Test
    void createsAnEmptyCollectionAndIsIdempotent() {
        store.ensureReady();
        store.ensureReady();

        assertThat(store.count()).isZero();
    }

    @Test
    void storesRowsThatReadBackExactlyAndUpsertsByMemoryId() {
        VectorRecord a = record("m-a", "/repo/日本", "fact", "active", T0, 0.1f, -0.2f, 0.3f, 0.4f);
        VectorRecord b = record("m-\"b\\", "/repo/x", "decision", "active", T0.plusDays(1), 1f, 0f, 0f, 0f);

        store.upsert(List.of(a, b));
        store.upsert(List.of(record("m-a", "/repo/日本", "fact", "superseded", T0, 0.1f, -0.2f, 0.3f, 0.4f)));

        assertThat(store.count()).isEqualTo(2);
        List<VectorRecord> stored = store.fetch(List.of("m-a", "m-\"b\\"))
            .stream()
            .sorted(Comparator.comparing(VectorRecord::memoryId))
            .toList();
        assertThat(stored).hasSize(2);
        VectorRecord storedB = stored.get(0);
        VectorRecord storedA = stored.get(1);
        assertThat(storedA.memoryId()).isEqualTo("m-a");
        assertThat(storedA.vector()).containsExactly(0.1f, -0.2f, 0.3f, 0.4f);
        assertThat(storedA.project()).isEqualTo("/repo/日本");
        assertThat(storedA.kind()).isEqualTo("fact");
        assertThat(storedA.status()).isEqualTo("superseded");
        assertThat(storedA.ts()).isEqualTo(T0);
        assertThat(storedB.memoryId()).isEqualTo("m-\"b\\");
        assertThat(storedB.vector()).containsExactly(1f, 0f, 0f, 0f);
        assertThat(storedB.ts()).isEqualTo(T0.plusDays(1));
    }

    @Test
    void returnsTheCosineSimilarityBestFirst() {
        store.upsert(List.of(record("same", "/p", "fact", "active", T0, 2f, 0f, 0f, 0f),
                record("diagonal", "/p", "fact", "active", T0, 1f, 1f, 0f, 0f),
                record("orthogonal", "/p", "fact", "active", T0, 0f, 3f, 0f, 0f),
                record("opposite", "/p", "fact", "active", T0, -1f, 0f, 0f, 0f)));

        List<VectorHit> hits = store.search(new float[] { 1f, 0f, 0f, 0f }, 4, VectorFilter.none());

        assertThat(hits).extracting(VectorHit::memoryId).containsExactly("same", "diagonal", "orthogonal", "opposite");
        assertThat(hits.get(0).score()).isCloseTo(1.0, within(EPSILON));
        assertThat(hits.get(1).score()).isCloseTo(Math.sqrt(0.5), within(EPSILON));
        assertThat(hits.get(2).score()).isCloseTo(0.0, within(EPSILON));
        assertThat(hits.get(3).score()).isCloseTo(-1.0, within(EPSILON));
        assertThat(store.search(new float[] { 1f, 0f, 0f, 0f }, 2, VectorFilter.none())).extracting(VectorHit::memoryId)
            .containsExactly("same", "diagonal");
    }

    @Test
    void appliesEveryFilterAndTreatsHostileValuesAsPlainText() {
        String hostile = "a\" || memory_id != \"";
        store.upsert(List.of(record("p1-fact", "/p1", "fact", "active", T0, 1f, 0f, 0f, 0f),
                record("p1-decision", "/p1", "decision", "active", T0.plusHours(1), 1f, 0.1f, 0f, 0f),
                record("p1-old", "/p1", "fact", "superseded", T0.plusHours(2), 1f, 0.2f, 0f, 0f),
                record("p2-fact", "/p2", "fact", "active", T0.plusHours(3), 1f, 0.3f, 0f, 0f),
                record("hostile", hostile, "fact", "active", T0.plusHours(4), 1f, 0.4f, 0f, 0f),
                record("backslash", "C:\\repo\\\n", "fact", "active", T0.plusHours(5), 1f, 0.5f, 0f, 0f)));
        float[] query = { 1f, 0f, 0f, 0f };

        assertThat(ids(store.search(query, 10, VectorFilter.project("/p1")))).containsExactly("p1-fact", "p1-decision");
        assertThat(ids(store.search(query, 10, new VectorFilter("/p1", Set.of("fact"), Set.of(), null, null))))
            .containsExactly("p1-fact", "p1-old");
        assertThat(ids(store.search(query, 10, new VectorFilter(null, Set.of(), Set.of("superseded"), null, null))))
            .containsExactly("p1-old");
        assertThat(ids(
                store.search(query, 10, new VectorFilter(null, Set.of(), Set.of(), T0.plusHours(1), T0.plusHours(3)))))
            .containsExactly("p1-decision", "p1-old");
        assertThat(ids(store.search(query, 10, new VectorFilter(hostile, Set.of(), Set.of(), null, null))))
            .containsExactly("hostile");
        assertThat(ids(store.search(query, 10, new VectorFilter("C:\\repo\\\n", Set.of(), Set.of(), null, null))))
            .containsExactly("backslash");
        assertThat(ids(store.search(query, 10, new VectorFilter("/nowhere", Set.of(), Set.of(), null, null))))
            .isEmpty();
    }

    @Test
    void deletesOnlyTheGivenIds() {
        String hostileId = "x\"] or memory_id in [\"keep";
        store.upsert(List.of(record("keep", "/p", "fact", "active", T0, 1f, 0f, 0f, 0f),
                record("drop", "/p", "fact", "active", T0, 0f, 1f, 0f, 0f),
                record(hostileId, "/p", "fact", "active", T0, 0f, 0f, 1f, 0f)));

        store.delete(List.of("drop", hostileId, "never-stored"));

        assertThat(store.count()).isEqualTo(1);
        assertThat(store.fetch(List.of("keep", "drop", hostileId))).extracting(VectorRecord::memoryId)
            .containsExactly("keep");
    }

    @Test
    void upsertsMoreThanOneBatch() {
        int n = MilvusVectorStore.BATCH_SIZE * 2 + 1;

        store.upsert(IntStream.range(0, n)
            .mapToObj(i -> record("m-" + i, "/p", "fact", "active", T0, 1f, i, 0f, 0f))
            .toList());

        assertThat(store.count()).isEqualTo(n);
    }

    @Test
    void clearEmptiesTheCollectionAndLeavesItUsable() {
        store.upsert(List.of(record("m-1", "/p", "fact", "active", T0, 1f, 0f, 0f, 0f)));

        store.clear();

        assertThat(store.count()).isZero();
        store.upsert(List.of(record("m-2", "/p", "fact", "active", T0, 0f, 1f, 0f, 0f)));
        assertThat(store.count()).isEqualTo(1);
    }

    @Test
    void namesTheOperationAndCollectionWhenMilvusFails() {
        store.drop();

        assertThatThrownBy(store::count).isInstanceOf(VectorStoreException.class)
            .hasMessageStartingWith("milvus vector store: cannot count " + store.collection() + ": ");
    }

    private static List<String> ids(List<VectorHit> hits) {
        return hits.stream().map(VectorHit::memoryId).toList();
    }

}
