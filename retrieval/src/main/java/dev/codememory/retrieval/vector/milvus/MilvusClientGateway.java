package dev.codememory.retrieval.vector.milvus;

import io.milvus.shaded.io.grpc.Status;
import io.milvus.v2.client.ConnectConfig;
import io.milvus.v2.client.MilvusClientV2;
import io.milvus.v2.client.RetryConfig;
import io.milvus.v2.service.collection.request.CreateCollectionReq;
import io.milvus.v2.service.collection.request.DropCollectionReq;
import io.milvus.v2.service.collection.request.HasCollectionReq;
import io.milvus.v2.service.collection.request.LoadCollectionReq;
import io.milvus.v2.service.vector.request.DeleteReq;
import io.milvus.v2.service.vector.request.QueryReq;
import io.milvus.v2.service.vector.request.SearchReq;
import io.milvus.v2.service.vector.request.UpsertReq;
import io.milvus.v2.service.vector.response.QueryResp;
import io.milvus.v2.service.vector.response.SearchResp;
import java.time.Duration;

/** {@link MilvusGateway} over the SDK's {@link MilvusClientV2}. */
final class MilvusClientGateway implements MilvusGateway {

    private final MilvusClientV2 client;

    private MilvusClientGateway(MilvusClientV2 client) {
        this.client = client;
    }

    /**
     * Connects now: the SDK opens the channel and waits for the server in its
     * constructor.
     *
     * <p>
     * Every call then has a deadline of {@code callTimeout}. The SDK's calls wait for the
     * channel to be ready, so without a deadline a call made while the server is down
     * waits for it for ever (an embed step hung that way when Milvus was stopped under
     * it); with one, a server back within the deadline is waited for and one that stays
     * down fails the call. Retries of calls that fail otherwise are bounded by the same
     * time (the SDK's default retries 75 times, for up to about four minutes).
     */
    static MilvusClientGateway open(MilvusSettings settings, Duration connectTimeout, Duration callTimeout) {
        ConnectConfig.ConnectConfigBuilder config = ConnectConfig.builder()
            .uri(settings.uri())
            .connectTimeoutMs(connectTimeout.toMillis())
            .rpcDeadlineMs(callTimeout.toMillis());
        if (settings.token() != null) {
            config.token(settings.token());
        }
        if (settings.database() != null) {
            config.dbName(settings.database());
        }
        MilvusClientV2 client = new MilvusClientV2(config.build());
        client.retryConfig(RetryConfig.builder().maxRetryTimeoutMs(callTimeout.toMillis()).build());
        return new MilvusClientGateway(client);
    }

    /**
     * Whether the server refused the call's credentials: gRPC status
     * {@code UNAUTHENTICATED}, which Milvus answers when authorization is on and the
     * token is wrong, malformed or missing. The SDK throws gRPC's own exceptions (shaded
     * into its jar), so their status is read with the SDK's copy of gRPC.
     */
    static boolean unauthenticated(Throwable e) {
        return Status.fromThrowable(e).getCode() == Status.Code.UNAUTHENTICATED;
    }

    @Override
    public boolean hasCollection(String collection) {
        return client.hasCollection(HasCollectionReq.builder().collectionName(collection).build());
    }

    @Override
    public void createCollection(CreateCollectionReq request) {
        client.createCollection(request);
    }

    @Override
    public void loadCollection(String collection) {
        client.loadCollection(LoadCollectionReq.builder().collectionName(collection).sync(true).build());
    }

    @Override
    public void flush(String collection) {
        client.flush(io.milvus.v2.service.utility.request.FlushReq.builder()
            .collectionNames(java.util.List.of(collection))
            .build());
    }

    @Override
    public void dropCollection(String collection) {
        client.dropCollection(DropCollectionReq.builder().collectionName(collection).build());
    }

    @Override
    public void upsert(UpsertReq request) {
        client.upsert(request);
    }

    @Override
    public void delete(DeleteReq request) {
        client.delete(request);
    }

    @Override
    public SearchResp search(SearchReq request) {
        return client.search(request);
    }

    @Override
    public QueryResp query(QueryReq request) {
        return client.query(request);
    }

    @Override
    public void close() {
        client.close();
    }

}
