package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.vector.EmbeddingVersion;
import io.milvus.v2.common.ConsistencyLevel;
import io.milvus.v2.common.DataType;
import io.milvus.v2.common.IndexParam;
import io.milvus.v2.service.collection.request.CreateCollectionReq;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MilvusSchemaTests {

    private static final EmbeddingVersion MINILM = new EmbeddingVersion("all-MiniLM-L6-v2", 384, "mean", 256);

    @Test
    void namesTheCollectionAfterTheEmbeddingVersion() {
        assertThat(MilvusSchema.collectionName(MINILM)).isEqualTo("code_memory_all_minilm_l6_v2_384_mean_256");
    }

    @Test
    void rejectsAVersionWhoseCollectionNameWouldBeTooLong() {
        EmbeddingVersion longModel = new EmbeddingVersion("m".repeat(240), 384, "mean", 256);

        assertThatIllegalArgumentException().isThrownBy(() -> MilvusSchema.collectionName(longModel))
            .withMessageStartingWith(
                    "embedding version " + longModel.id() + " does not make a valid Milvus collection name");
    }

    @Test
    void definesTheFieldsWithTypesLengthsDimensionAndPrimaryKey() {
        CreateCollectionReq.CollectionSchema schema = MilvusSchema.schema(MINILM);

        assertThat(schema.isEnableDynamicField()).isFalse();
        assertThat(schema.getFieldSchemaList())
            .extracting(CreateCollectionReq.FieldSchema::getName, CreateCollectionReq.FieldSchema::getDataType,
                    CreateCollectionReq.FieldSchema::getIsPrimaryKey)
            .containsExactly(tuple("memory_id", DataType.VarChar, true), tuple("vector", DataType.FloatVector, false),
                    tuple("project", DataType.VarChar, false), tuple("kind", DataType.VarChar, false),
                    tuple("status", DataType.VarChar, false), tuple("ts", DataType.Int64, false));
        assertThat(schema.getField("memory_id").getMaxLength()).isEqualTo(128);
        assertThat(schema.getField("memory_id").getAutoID()).isFalse();
        assertThat(schema.getField("vector").getDimension()).isEqualTo(384);
        assertThat(schema.getField("project").getMaxLength()).isEqualTo(1024);
        assertThat(schema.getField("kind").getMaxLength()).isEqualTo(32);
        assertThat(schema.getField("status").getMaxLength()).isEqualTo(32);
    }

    @Test
    void takesTheDimensionFromTheVersion() {
        EmbeddingVersion small = new EmbeddingVersion("hash", 16, "none", 64);

        assertThat(MilvusSchema.schema(small).getField("vector").getDimension()).isEqualTo(16);
    }

    @Test
    void indexesTheVectorWithHnswAndCosine() {
        IndexParam index = MilvusSchema.vectorIndex();

        assertThat(index.getFieldName()).isEqualTo("vector");
        assertThat(index.getIndexType()).isEqualTo(IndexParam.IndexType.HNSW);
        assertThat(index.getMetricType()).isEqualTo(IndexParam.MetricType.COSINE);
        assertThat(index.getExtraParams()).isEqualTo(Map.of("M", 16, "efConstruction", 200));
    }

    @Test
    void createsTheCollectionWithSchemaIndexAndStrongConsistency() {
        CreateCollectionReq request = MilvusSchema.createRequest(MINILM);

        assertThat(request.getCollectionName()).isEqualTo("code_memory_all_minilm_l6_v2_384_mean_256");
        assertThat(request.getCollectionSchema().getFieldSchemaList()).hasSize(6);
        assertThat(request.getIndexParams()).singleElement()
            .satisfies(index -> assertThat(index.getIndexType()).isEqualTo(IndexParam.IndexType.HNSW));
        assertThat(request.getConsistencyLevel()).isEqualTo(ConsistencyLevel.STRONG);
        assertThat(request.getDescription())
            .isEqualTo("code-memory vectors, embedding version " + "all_minilm_l6_v2_384_mean_256");
    }

}
