package dev.codememory.retrieval.vector.milvus;

import dev.codememory.config.vector.EmbeddingVersion;
import io.milvus.v2.common.ConsistencyLevel;
import io.milvus.v2.common.DataType;
import io.milvus.v2.common.IndexParam;
import io.milvus.v2.service.collection.request.AddFieldReq;
import io.milvus.v2.service.collection.request.CreateCollectionReq;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The collection of one embedding version: its name, fields and index. Pure; nothing here
 * talks to a server.
 *
 * <p>
 * Fields: {@code memory_id} VarChar(128) primary key (ids are ours, never
 * auto-generated), {@code vector} FloatVector(dimension), {@code project} VarChar(1024),
 * {@code kind} and {@code status} VarChar(32), {@code ts} Int64 epoch milliseconds UTC.
 * VarChar lengths are UTF-8 bytes. No dynamic field: a row with an unknown field is
 * rejected rather than silently stored.
 *
 * <p>
 * Index: HNSW with the COSINE metric, M=16 and efConstruction=200, the values of Milvus's
 * own HNSW examples (more M: better recall, more memory; more efConstruction: better
 * graph, slower build). With COSINE, Milvus returns the cosine similarity itself as the
 * score: in [-1, 1], larger is more similar, results best first, which is exactly
 * {@code VectorHit.score}. The collection's consistency level is STRONG so a search right
 * after an upsert sees it, as with the DuckDB store.
 */
final class MilvusSchema {

    static final String COLLECTION_PREFIX = "code_memory_";

    /**
     * The team store's collection of one embedding version: every developer's published
     * memories, the project a partition key.
     */
    static final String TEAM_PREFIX = "code_memory_team_";
    static final String MEMORY_ID = "memory_id";
    static final String VECTOR = "vector";
    static final String PROJECT = "project";
    static final String KIND = "kind";
    static final String STATUS = "status";
    static final String TS = "ts";

    static final int MEMORY_ID_MAX_BYTES = 128;
    static final int PROJECT_MAX_BYTES = 1024;
    static final int KIND_MAX_BYTES = 32;
    static final int STATUS_MAX_BYTES = 32;

    static final int HNSW_M = 16;
    static final int HNSW_EF_CONSTRUCTION = 200;

    /**
     * Milvus: a letter or underscore first, then letters, digits and underscores; at most
     * 255 characters.
     */
    private static final Pattern COLLECTION_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,254}");

    private MilvusSchema() {
    }

    static String collectionName(EmbeddingVersion version) {
        return collectionName(COLLECTION_PREFIX, version);
    }

    static String collectionName(String prefix, EmbeddingVersion version) {
        String name = prefix + version.id();
        if (!COLLECTION_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("embedding version " + version.id()
                    + " does not make a valid Milvus collection name (at most 255 letters, digits, underscores): "
                    + name);
        }
        return name;
    }

    static CreateCollectionReq.CollectionSchema schema(EmbeddingVersion version) {
        return schema(version, false);
    }

    /**
     * @param projectPartitionKey true: {@code project} is the partition key, so a search
     * filtered by project reads that project's partition only (the team store, where
     * every project of a company shares the collection)
     */
    static CreateCollectionReq.CollectionSchema schema(EmbeddingVersion version, boolean projectPartitionKey) {
        CreateCollectionReq.CollectionSchema schema = CreateCollectionReq.CollectionSchema.builder()
            .enableDynamicField(false)
            .build();
        schema.addField(AddFieldReq.builder()
            .fieldName(MEMORY_ID)
            .dataType(DataType.VarChar)
            .maxLength(MEMORY_ID_MAX_BYTES)
            .isPrimaryKey(true)
            .autoID(false)
            .build());
        schema.addField(AddFieldReq.builder()
            .fieldName(VECTOR)
            .dataType(DataType.FloatVector)
            .dimension(version.dimension())
            .build());
        schema.addField(AddFieldReq.builder()
            .fieldName(PROJECT)
            .dataType(DataType.VarChar)
            .maxLength(PROJECT_MAX_BYTES)
            .isPartitionKey(projectPartitionKey)
            .build());
        schema.addField(
                AddFieldReq.builder().fieldName(KIND).dataType(DataType.VarChar).maxLength(KIND_MAX_BYTES).build());
        schema.addField(
                AddFieldReq.builder().fieldName(STATUS).dataType(DataType.VarChar).maxLength(STATUS_MAX_BYTES).build());
        schema.addField(AddFieldReq.builder().fieldName(TS).dataType(DataType.Int64).build());
        return schema;
    }

    static IndexParam vectorIndex() {
        return IndexParam.builder()
            .fieldName(VECTOR)
            .indexType(IndexParam.IndexType.HNSW)
            .metricType(IndexParam.MetricType.COSINE)
            .extraParams(Map.of("M", HNSW_M, "efConstruction", HNSW_EF_CONSTRUCTION))
            .build();
    }

    static CreateCollectionReq createRequest(EmbeddingVersion version) {
        return createRequest(version, collectionName(version), false);
    }

    static CreateCollectionReq createRequest(EmbeddingVersion version, String collection, boolean projectPartitionKey) {
        return CreateCollectionReq.builder()
            .collectionName(collection)
            .description("code-memory vectors, embedding version " + version.id())
            .collectionSchema(schema(version, projectPartitionKey))
            .indexParams(List.of(vectorIndex()))
            .consistencyLevel(ConsistencyLevel.STRONG)
            .build();
    }

}
