package dev.codememory.config.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CodeMemoryPropertiesTests {

    @Test
    void defaultsAreTheEmbeddedSetup() {
        CodeMemoryProperties p = new CodeMemoryProperties("/h", null, null, null, null, null, null, null);

        assertThat(p.vectorStore()).isEqualTo("duckdb");
        assertThat(p.embedding().model()).isEqualTo("minilm");
        assertThat(p.embedding().batchSize()).isEqualTo(8);
        assertThat(p.embedding().chunkSize()).isEqualTo(512);
        assertThat(p.embedding().threads()).isZero();
        assertThat(p.ingest().chunkSize()).isEqualTo(10_000);
        assertThat(p.schedule().idleAfter()).isEqualTo(Duration.ofMinutes(30));
        assertThat(p.schedule().nightlyCron()).isEqualTo("0 0 3 * * ?");
    }

    @Test
    void badSettingsNameTheSetting() {
        assertThatThrownBy(() -> new CodeMemoryProperties("/h", null, null, null, null, "lance", null, null))
            .hasMessageContaining("code-memory.vector-store");
        assertThatThrownBy(() -> new CodeMemoryProperties("/h", null, null, null, null, "milvus",
                new CodeMemoryProperties.Milvus(null, null, null), null))
            .hasMessageContaining("code-memory.milvus.uri");
        assertThatThrownBy(() -> new CodeMemoryProperties.Embedding(null, null, "torchscript", null, null))
            .hasMessageContaining("code-memory.embedding.torchscript.url");
        assertThatThrownBy(() -> new CodeMemoryProperties.Embedding(null, null, null, null, -1))
            .hasMessageContaining("code-memory.embedding.threads");
        assertThatThrownBy(() -> new CodeMemoryProperties.Embedding(0, null, null, null, null))
            .hasMessageContaining("batch-size");
        assertThatThrownBy(() -> new CodeMemoryProperties("", null, null, null, null, null, null, null))
            .hasMessageContaining("code-memory.home");
    }

    @Test
    void milvusAndTorchScriptAreAcceptedWhenComplete() {
        CodeMemoryProperties p = new CodeMemoryProperties("/h", null, null, null, null, "Milvus",
                new CodeMemoryProperties.Milvus("http://localhost:19530", null, null),
                new CodeMemoryProperties.Embedding(null, null, "torchscript",
                        new CodeMemoryProperties.TorchScript("/models/e5.pt", "/models/tokenizer.json", 768, null),
                        null));

        assertThat(p.vectorStore()).isEqualTo("milvus");
        assertThat(p.embedding().torchscript().dimension()).isEqualTo(768);
    }

}
