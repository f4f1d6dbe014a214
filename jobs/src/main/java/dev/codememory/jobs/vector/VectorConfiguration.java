package dev.codememory.jobs.vector;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.vector.VectorOutbox;
import org.springframework.batch.core.configuration.annotation.JobScope;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedder (all-MiniLM-L6-v2 on ONNX Runtime, offline) and the vector store chosen by
 * {@code code-memory.vector-store}: {@code duckdb} (default, inside memory.duckdb) or
 * {@code milvus}.
 */
@Configuration(proxyBeanMethods = false)
public class VectorConfiguration {

    @Bean
    VectorComponents vectorComponents(CodeMemoryHome home, CodeMemoryProperties properties,
            dev.codememory.config.team.TeamProperties team) {
        return new VectorComponents(home, properties, team);
    }

    @Bean
    EmbeddingService embeddingService(VectorComponents components) {
        return new EmbeddingService(components.embedder(), components.version());
    }

    /**
     * One per job run: a Milvus client is connected when a job needs it and closed when
     * the job ends.
     */
    @Bean(destroyMethod = "close")
    @JobScope
    VectorStore vectorStore(VectorComponents components, JobDatabase database) {
        return components.vectorStore(database.connections());
    }

    @Bean
    VectorOutbox vectorOutbox(JobDatabase database) {
        return new VectorOutbox(database.connections());
    }

}
