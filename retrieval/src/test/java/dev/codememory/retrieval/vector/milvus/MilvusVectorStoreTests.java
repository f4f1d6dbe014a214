package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStoreException;
import io.milvus.v2.common.ConsistencyLevel;
import io.milvus.v2.exception.ErrorCode;
import io.milvus.v2.exception.MilvusClientException;
import io.milvus.v2.service.collection.request.CreateCollectionReq;
import io.milvus.v2.service.vector.request.DeleteReq;
import io.milvus.v2.service.vector.request.QueryReq;
import io.milvus.v2.service.vector.request.SearchReq;
import io.milvus.v2.service.vector.request.UpsertReq;
import io.milvus.v2.service.vector.request.data.FloatVec;
import io.milvus.v2.service.vector.response.QueryResp;
import io.milvus.v2.service.vector.response.SearchResp;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MilvusVectorStoreTests {

    private static final EmbeddingVersion VERSION = new EmbeddingVersion("hash", 3, "none", 64);

    private static final String COLLECTION = "code_memory_hash_3_none_64";

    private static final LocalDateTime TS = LocalDateTime.of(2023, 11, 14, 22, 13, 20);

    private final RecordingGateway milvus = new RecordingGateway();

    private final MilvusVectorStore store = new MilvusVectorStore(milvus, VERSION);

    private static VectorRecord record(int i) {
        return new VectorRecord("m-%04d".formatted(i), new float[] { i, 1f, 0f }, "/p", "fact", "active", TS);
    }

    @Test
    void splitsIntoConsecutiveBatchesOfAtMostTheGivenSize() {
        List<Integer> items = IntStream.range(0, 1001).boxed().toList();

        List<List<Integer>> batches = MilvusVectorStore.batches(items, 500);

        assertThat(batches).extracting(List::size).containsExactly(500, 500, 1);
        assertThat(batches.get(1).get(0)).isEqualTo(500);
        assertThat(batches.get(2)).containsExactly(1000);
        assertThat(MilvusVectorStore.batches(items.subList(0, 500), 500)).extracting(List::size).containsExactly(500);
        assertThat(MilvusVectorStore.batches(List.of(), 500)).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusVectorStore.batches(items, 0))
            .withMessage("batch size must be at least 1, was 0");
    }

    @Test
    void upsertsInBatchesOf500IntoTheVersionsCollection() {
        store.upsert(IntStream.range(0, 1001).mapToObj(MilvusVectorStoreTests::record).toList());

        assertThat(milvus.upserts).extracting(UpsertReq::getCollectionName).containsOnly(COLLECTION);
        assertThat(milvus.upserts).extracting(u -> u.getData().size()).containsExactly(500, 500, 1);
        assertThat(milvus.upserts.get(0).getData().get(0).get("memory_id").getAsString()).isEqualTo("m-0000");
        assertThat(milvus.upserts.get(2).getData().get(0).get("memory_id").getAsString()).isEqualTo("m-1000");
    }

    @Test
    void sendsNothingForAnInvalidBatch() {
        VectorRecord wrongDimension = new VectorRecord("m-x", new float[] { 1f }, "/p", "fact", "active", TS);

        assertThatIllegalArgumentException().isThrownBy(() -> store.upsert(List.of(record(1), wrongDimension)))
            .withMessage("vector of m-x has 1 dimensions, the store 3");
        assertThat(milvus.calls).isEmpty();
    }

    @Test
    void sendsNothingForEmptyUpsertsAndDeletes() {
        store.upsert(List.of());
        store.delete(List.of());

        assertThat(milvus.calls).isEmpty();
    }

    @Test
    void deletesDistinctIdsInBatchesWithEscapedFilters() {
        List<String> ids = new ArrayList<>(IntStream.range(0, 500).mapToObj("m-%04d"::formatted).toList());
        ids.add("m-0000");
        ids.add("a\" || memory_id != \"");

        store.delete(ids);

        assertThat(milvus.deletes).extracting(DeleteReq::getCollectionName).containsOnly(COLLECTION);
        assertThat(milvus.deletes).hasSize(2);
        assertThat(milvus.deletes.get(0).getFilter()).startsWith("memory_id in [\"m-0000\", \"m-0001\", ")
            .endsWith(", \"m-0499\"]");
        assertThat(milvus.deletes.get(1).getFilter()).isEqualTo("memory_id in [\"a\\\" || memory_id != \\\"\"]");
    }

    @Test
    void createsAMissingCollectionAndLoadsIt() {
        store.ensureReady();

        assertThat(milvus.calls).containsExactly("has " + COLLECTION, "create " + COLLECTION, "load " + COLLECTION);
        assertThat(milvus.created.get(0).getCollectionSchema().getField("vector").getDimension()).isEqualTo(3);
    }

    @Test
    void onlyLoadsACollectionThatExists() {
        store.ensureReady();
        milvus.calls.clear();

        store.ensureReady();

        assertThat(milvus.calls).containsExactly("has " + COLLECTION, "load " + COLLECTION);
        assertThat(milvus.created).hasSize(1);
    }

    @Test
    void clearDropsTheCollectionAndCreatesItAgain() {
        store.ensureReady();
        milvus.calls.clear();

        store.clear();

        assertThat(milvus.calls).containsExactly("has " + COLLECTION, "drop " + COLLECTION, "has " + COLLECTION,
                "create " + COLLECTION, "load " + COLLECTION);
    }

    @Test
    void searchesTheVectorFieldWithFilterEfAndStrongConsistency() {
        milvus.searchResponse = SearchResp.builder()
            .searchResults(List.of(List.of(SearchResp.SearchResult.builder().id("m-2").score(1.0f).build(),
                    SearchResp.SearchResult.builder().id("m-1").score(0.5f).build())))
            .build();

        List<VectorHit> hits = store.search(new float[] { 1f, 0f, 0f }, 5,
                new VectorFilter("/p", Set.of("fact"), Set.of(), null, null));

        assertThat(hits).containsExactly(new VectorHit("m-2", 1.0), new VectorHit("m-1", 0.5));
        SearchReq request = milvus.searches.get(0);
        assertThat(request.getCollectionName()).isEqualTo(COLLECTION);
        assertThat(request.getAnnsField()).isEqualTo("vector");
        assertThat(request.getLimit()).isEqualTo(5L);
        assertThat(request.getFilter()).isEqualTo("project == \"/p\" and kind in [\"fact\"]");
        assertThat(request.getSearchParams()).isEqualTo(Map.of("ef", 64));
        assertThat(request.getConsistencyLevel()).isEqualTo(ConsistencyLevel.STRONG);
        assertThat(request.getData()).singleElement()
            .isInstanceOf(FloatVec.class)
            .extracting(v -> v.getData())
            .isEqualTo(List.of(1f, 0f, 0f));
    }

    @Test
    void searchesWithoutAFilterWhenNothingRestricts() {
        store.search(new float[] { 1f, 0f, 0f }, 3, VectorFilter.none());

        assertThat(milvus.searches.get(0).getFilter()).isNullOrEmpty();
    }

    @Test
    void widensEfToTopKForLargeSearches() {
        store.search(new float[] { 1f, 0f, 0f }, 200, VectorFilter.none());

        assertThat(milvus.searches.get(0).getSearchParams()).isEqualTo(Map.of("ef", 200));
    }

    @Test
    void rejectsAQueryOfTheWrongDimensionOrANonPositiveTopK() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.search(new float[] { 1f, 0f }, 5, VectorFilter.none()))
            .withMessage("query has 2 dimensions, the store 3");
        assertThatIllegalArgumentException()
            .isThrownBy(() -> store.search(new float[] { 1f, 0f, 0f }, 0, VectorFilter.none()))
            .withMessage("topK must be at least 1, was 0");
        assertThat(milvus.calls).isEmpty();
    }

    @Test
    void countsWithACountStarQueryAtStrongConsistency() {
        milvus.queryResponse = QueryResp.builder()
            .queryResults(List.of(QueryResp.QueryResult.builder().entity(Map.of("count(*)", 7L)).build()))
            .build();

        assertThat(store.count()).isEqualTo(7L);
        QueryReq request = milvus.queries.get(0);
        assertThat(request.getCollectionName()).isEqualTo(COLLECTION);
        assertThat(request.getFilter()).isEmpty();
        assertThat(request.getOutputFields()).containsExactly("count(*)");
        assertThat(request.getConsistencyLevel()).isEqualTo(ConsistencyLevel.STRONG);
    }

    @Test
    void reportsSdkFailuresWithOperationAndCollection() {
        milvus.failure = new MilvusClientException(ErrorCode.SERVER_ERROR, "collection not loaded");

        assertThatThrownBy(() -> store.upsert(List.of(record(1)))).isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot upsert into " + COLLECTION + ": collection not loaded")
            .hasCauseReference(milvus.failure);
        assertThatThrownBy(() -> store.search(new float[] { 1f, 0f, 0f }, 1, VectorFilter.none()))
            .isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot search " + COLLECTION + ": collection not loaded");
        assertThatThrownBy(store::count).isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot count " + COLLECTION + ": collection not loaded");
        assertThatThrownBy(() -> store.delete(List.of("m-1"))).isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot delete from " + COLLECTION + ": collection not loaded");
        assertThatThrownBy(store::ensureReady).isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot create " + COLLECTION + ": collection not loaded");
    }

    @Test
    void closesTheClient() {
        store.close();

        assertThat(milvus.calls).containsExactly("close");
    }

    @Test
    void reportsAServerThatCannotBeReachedWithUriAndCollection() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        MilvusSettings settings = MilvusSettings.of("http://127.0.0.1:" + closedPort);

        assertThatThrownBy(
                () -> MilvusVectorStore.connect(settings, VERSION, Duration.ofMillis(300), Duration.ofMillis(300)))
            .isInstanceOf(VectorStoreException.class)
            .hasMessageStartingWith("milvus vector store: cannot connect to http://127.0.0.1:" + closedPort + " for "
                    + COLLECTION + ": ");
    }

    @Test
    void namesItsVersionAndCollection() {
        assertThat(store.version()).isEqualTo(VERSION);
        assertThat(store.collection()).isEqualTo(COLLECTION);
    }

    /** Records every call; holds one collection flag, like a server would. */
    private static final class RecordingGateway implements MilvusGateway {

        final List<String> calls = new ArrayList<>();

        final List<CreateCollectionReq> created = new ArrayList<>();

        final List<UpsertReq> upserts = new ArrayList<>();

        final List<DeleteReq> deletes = new ArrayList<>();

        final List<SearchReq> searches = new ArrayList<>();

        final List<QueryReq> queries = new ArrayList<>();

        boolean exists;

        RuntimeException failure;

        SearchResp searchResponse = SearchResp.builder().searchResults(List.of(List.of())).build();

        QueryResp queryResponse;

        private void call(String call) {
            if (failure != null) {
                throw failure;
            }
            calls.add(call);
        }

        @Override
        public boolean hasCollection(String collection) {
            call("has " + collection);
            return exists;
        }

        @Override
        public void createCollection(CreateCollectionReq request) {
            call("create " + request.getCollectionName());
            created.add(request);
            exists = true;
        }

        @Override
        public void loadCollection(String collection) {
            call("load " + collection);
        }

        @Override
        public void flush(String collection) {
            call("flush " + collection);
        }

        @Override
        public void dropCollection(String collection) {
            call("drop " + collection);
            exists = false;
        }

        @Override
        public void upsert(UpsertReq request) {
            call("upsert");
            upserts.add(request);
        }

        @Override
        public void delete(DeleteReq request) {
            call("delete");
            deletes.add(request);
        }

        @Override
        public SearchResp search(SearchReq request) {
            call("search");
            searches.add(request);
            return searchResponse;
        }

        @Override
        public QueryResp query(QueryReq request) {
            call("query");
            queries.add(request);
            return queryResponse;
        }

        @Override
        public void close() {
            call("close");
        }

    }

}
