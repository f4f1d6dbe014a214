package dev.codememory.retrieval.components;

import dev.codememory.retrieval.vector.DuckDbVectorStore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.HomeSettings;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.query.QueryRequest;
import dev.codememory.retrieval.query.QueryService;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one factory of embedder and vector store, and the query path taking its store from
 * it.
 */
class VectorComponentsTests {

    @TempDir
    Path root;

    @Test
    void readsTheStoreAndModelFromTheHomesSettingsFiles() throws Exception {
        Files.writeString(root.resolve("application.yml"), """
                code-memory:
                  vector-store: milvus
                  milvus.uri: http://127.0.0.1:1
                  embedding:
                    batchSize: 8
                """);
        VectorComponents components = VectorComponents.forHome(new CodeMemoryHome(root));

        assertThat(components.milvus()).isTrue();
        assertThat(components.settings().milvus().uri()).isEqualTo("http://127.0.0.1:1");
        assertThat(components.settings().embedding().batchSize()).isEqualTo(8);
        assertThat(components.settings().embedding().model()).isEqualTo("minilm");
        assertThat(components.version()).isEqualTo(MiniLmOnnxEmbedder.VERSION);
    }

    @Test
    void propertiesAreReadAndYamlWinsOverThem() throws Exception {
        Files.writeString(root.resolve("application.properties"),
                "code-memory.vector_store=milvus\ncode-memory.milvus.uri=http://props:19530\n");
        assertThat(HomeSettings.load(new CodeMemoryHome(root)).milvus().uri()).isEqualTo("http://props:19530");
        assertThat(HomeSettings.load(new CodeMemoryHome(root)).vectorStore()).isEqualTo("milvus");

        Files.writeString(root.resolve("application.yml"), "code-memory.vector-store: duckdb\n");
        assertThat(HomeSettings.load(new CodeMemoryHome(root)).vectorStore()).isEqualTo("duckdb");
    }

    @Test
    void withoutSettingsFilesTheStoreIsTheDuckDbTable() {
        VectorComponents components = VectorComponents.forHome(new CodeMemoryHome(root));

        try (VectorStore store = components.vectorStore(() -> null)) {
            assertThat(store).isInstanceOf(DuckDbVectorStore.class);
            assertThat(((DuckDbVectorStore) store).table()).isEqualTo("vectors_all_minilm_l6_v2_q_384_mean_128");
        }
    }

    @Test
    void theQueryPathSearchesTheStoreItIsGivenWithTheProjectFilter() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(root).ensureCreated();
        List<VectorFilter> filters = new ArrayList<>();
        VectorStore recording = new DuckDbVectorStore(() -> null, MiniLmOnnxEmbedder.VERSION) {
            @Override
            public List<VectorHit> search(float[] query, int topK, VectorFilter filter) {
                filters.add(filter);
                return List.of(new VectorHit("m1", 0.7));
            }
        };
        try (DuckDb.Session session = DuckDb.forHome(home).open();
                QueryService service = new QueryService(session, () -> null, () -> recording,
                        RankingSettings.defaults())) {
            try (Connection c = session.connection(); Statement st = c.createStatement()) {
                st.execute("""
                        INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                          body, quotes_json, canonical_key, stage, status, created_at)
                        VALUES ('m1', 'c1', 'decision', '/p', 's1', TIMESTAMP '2024-01-01 00:00:00',
                          'use DuckDB', 'we chose DuckDB for the ledger', '[]', 'k1', 'verified', 'active', now())""");
            }

            var hits = service.search(new QueryRequest(null, "ledger", "/p", LocalDateTime.of(2024, 2, 1, 0, 0)),
                    new float[384], 10);

            assertThat(hits).extracting(r -> r.memoryId()).containsExactly("m1");
        }
        assertThat(filters).hasSize(1);
        assertThat(filters.get(0).project()).isEqualTo("/p");
        assertThat(filters.get(0).statuses()).containsExactly("active");
    }

}
