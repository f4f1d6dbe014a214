package dev.codememory.jobs.vector;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.jobs.runtime.CodeMemoryProperties;
import dev.codememory.jobs.runtime.DuckDbSessions;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.processors.embed.MiniLmOnnxEmbedder;
import dev.codememory.processors.embed.TorchScriptEmbedder;
import java.nio.file.Path;
import dev.codememory.writers.vector.DuckDbVectorStore;
import dev.codememory.writers.vector.VectorOutbox;
import dev.codememory.writers.vector.milvus.MilvusSettings;
import dev.codememory.writers.vector.milvus.MilvusVectorStore;
import org.springframework.batch.core.configuration.annotation.JobScope;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedder (all-MiniLM-L6-v2 on ONNX Runtime, offline) and the vector store chosen by
 * {@code code-memory.vector-store}: {@code duckdb} (default, inside memory.duckdb) or {@code milvus}.
 */
@Configuration(proxyBeanMethods = false)
public class VectorConfiguration {

    @Bean
    EmbeddingService embeddingService(CodeMemoryHome home, CodeMemoryProperties properties) {
        Path cache = home.root().resolve("djl");
        CodeMemoryProperties.Embedding settings = properties.embedding();
        if (settings.model().equals("torchscript")) {
            CodeMemoryProperties.TorchScript ts = settings.torchscript();
            String name = ts.name() != null ? ts.name() : Path.of(ts.url().replaceFirst("^[a-z]+:/*", "/"))
                    .getFileName().toString();
            EmbeddingVersion version = new EmbeddingVersion(name, ts.dimension(), "mean",
                    MiniLmOnnxEmbedder.MAX_TOKENS);
            return new EmbeddingService(() -> new TorchScriptEmbedder(ts.url(), Path.of(ts.tokenizer()), version,
                    false, cache), version);
        }
        return new EmbeddingService(() -> new MiniLmOnnxEmbedder(cache, settings.batchSize()),
                MiniLmOnnxEmbedder.VERSION);
    }

    /** One per job run: a Milvus client is connected when a job needs it and closed when the job ends. */
    @Bean(destroyMethod = "close")
    @JobScope
    VectorStore vectorStore(CodeMemoryProperties properties, DuckDbSessions sessions,
            EmbeddingService embeddingService) {
        return open(properties, sessions, embeddingService.version());
    }

    /** The configured store of {@code version} (also for commands that work outside a job, such as forget). */
    public static VectorStore open(CodeMemoryProperties properties, DuckDbSessions sessions, EmbeddingVersion version) {
        return switch (properties.vectorStore()) {
            case "duckdb" -> new DuckDbVectorStore(sessions.connections(), version);
            case "milvus" -> MilvusVectorStore.connect(new MilvusSettings(properties.milvus().uri(),
                    properties.milvus().token(), properties.milvus().database()), version);
            default -> throw new IllegalArgumentException("code-memory.vector-store must be duckdb or milvus, was "
                    + properties.vectorStore());
        };
    }

    @Bean
    EmbeddingBench embeddingBench(dev.codememory.jobs.runtime.JobRunner jobRunner, DuckDbSessions sessions,
            EmbeddingService embeddingService) {
        return new EmbeddingBench(jobRunner, sessions, embeddingService);
    }

    @Bean
    VectorOutbox vectorOutbox(DuckDbSessions sessions) {
        return new VectorOutbox(sessions.connections());
    }
}
