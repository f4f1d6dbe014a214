package dev.codememory.retrieval.components;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.VectorStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The factory connecting to the Milvus its home names, waiting the product's own connect
 * timeout (10 s) on a port nobody listens on: run by {@code verify}, beside the tests
 * against a real Milvus server.
 */
class VectorComponentsIntegrationTests {

    @TempDir
    Path root;

    @Test
    void milvusConfiguredMeansTheMilvusStore() throws Exception {
        Files.writeString(root.resolve("application.yml"),
                "code-memory.vector-store: milvus\ncode-memory.milvus.uri: http://127.0.0.1:1\n");
        VectorComponents components = VectorComponents.forHome(new CodeMemoryHome(root));

        // nobody listens on port 1: the factory went for Milvus, and says so
        assertThatThrownBy(() -> components.vectorStore(() -> null)).isInstanceOf(VectorStoreException.class)
            .hasMessageStartingWith("milvus vector store: cannot connect to http://127.0.0.1:1 for "
                    + "code_memory_all_minilm_l6_v2_q_384_mean_128");
    }

}
