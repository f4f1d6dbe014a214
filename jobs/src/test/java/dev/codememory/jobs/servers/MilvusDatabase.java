package dev.codememory.jobs.servers;

import io.milvus.v2.client.ConnectConfig;
import io.milvus.v2.client.MilvusClientV2;
import io.milvus.v2.service.collection.request.DropCollectionReq;
import io.milvus.v2.service.collection.request.HasCollectionReq;
import io.milvus.v2.service.database.request.CreateDatabaseReq;
import io.milvus.v2.service.database.request.DropDatabaseReq;
import io.milvus.v2.service.vector.request.QueryReq;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A Milvus database of one test's own (so counts and ids are the test's alone), read
 * directly through the SDK, and dropped with its collections at the end.
 */
public final class MilvusDatabase implements AutoCloseable {

    private final String uri;

    private final String name = "cm_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private final MilvusClientV2 client;

    public MilvusDatabase(String uri) {
        this.uri = uri;
        MilvusClientV2 admin = new MilvusClientV2(ConnectConfig.builder().uri(uri).build());
        try {
            admin.createDatabase(CreateDatabaseReq.builder().databaseName(name).build());
        }
        finally {
            admin.close();
        }
        this.client = new MilvusClientV2(ConnectConfig.builder().uri(uri).dbName(name).build());
    }

    public String name() {
        return name;
    }

    /** The settings a home needs to use this database, as application.yml lines. */
    public String settings(String uri) {
        return "code-memory.vector-store: milvus\ncode-memory.milvus.uri: " + uri + "\ncode-memory.milvus.database: "
                + name + "\n";
    }

    public String settings() {
        return settings(uri);
    }

    /** Every stored vector of the collection, by memory id (empty if none). */
    public Map<String, float[]> vectors(String collection) {
        Map<String, float[]> out = new TreeMap<>();
        if (!client.hasCollection(HasCollectionReq.builder().collectionName(collection).build())) {
            return out;
        }
        client
            .query(QueryReq.builder()
                .collectionName(collection)
                .filter("memory_id != \"\"")
                .outputFields(List.of("memory_id", "vector"))
                .limit(16_384)
                .build())
            .getQueryResults()
            .forEach(r -> {
                List<?> values = (List<?>) r.getEntity().get("vector");
                float[] v = new float[values.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = ((Number) values.get(i)).floatValue();
                }
                out.put((String) r.getEntity().get("memory_id"), v);
            });
        return out;
    }

    @Override
    public void close() {
        try {
            for (String collection : client.listCollections().getCollectionNames()) {
                client.dropCollection(DropCollectionReq.builder().collectionName(collection).build());
            }
        }
        finally {
            client.close();
            MilvusClientV2 admin = new MilvusClientV2(ConnectConfig.builder().uri(uri).build());
            try {
                admin.dropDatabase(DropDatabaseReq.builder().databaseName(name).build());
            }
            finally {
                admin.close();
            }
        }
    }

}
