package dev.codememory.retrieval.vector.milvus;

import io.milvus.v2.service.collection.request.CreateCollectionReq;
import io.milvus.v2.service.vector.request.DeleteReq;
import io.milvus.v2.service.vector.request.QueryReq;
import io.milvus.v2.service.vector.request.SearchReq;
import io.milvus.v2.service.vector.request.UpsertReq;
import io.milvus.v2.service.vector.response.QueryResp;
import io.milvus.v2.service.vector.response.SearchResp;

/**
 * The few Milvus calls the store makes, taking the SDK's own request objects. The real
 * one delegates to {@code MilvusClientV2}; tests use a recording fake, because the SDK's
 * wire protocol is shaded gRPC and a server is not always at hand.
 */
interface MilvusGateway extends AutoCloseable {

    boolean hasCollection(String collection);

    void createCollection(CreateCollectionReq request);

    /**
     * Loads the collection for search and query and waits until it is loaded; a no-op
     * when it already is.
     */
    void loadCollection(String collection);

    void dropCollection(String collection);

    /**
     * Seals what was written to the collection so far, waiting until it is: a sealed
     * segment is searched through its index, a growing one by brute force.
     */
    void flush(String collection);

    void upsert(UpsertReq request);

    void delete(DeleteReq request);

    SearchResp search(SearchReq request);

    QueryResp query(QueryReq request);

    @Override
    void close();

}
