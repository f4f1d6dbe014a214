package dev.codememory.jobs.vector;

import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.config.vector.MemoryTexts;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorWork;
import dev.codememory.jobs.runtime.ActionSteps;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.readers.pending.PendingItemReader;
import dev.codememory.readers.vector.VectorWorkQueries;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.vector.VectorOutbox;
import dev.codememory.retrieval.vector.VectorOutboxWriter;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * L4 steps shared by graduation and reindex: queue what the index should hold (the
 * outbox), then embed and upsert it with one writer.
 */
@Configuration(proxyBeanMethods = false)
public class EmbedStepsConfiguration {

    /** New verified memories queued for upsert; superseded ones queued for removal. */
    @Bean
    Step queueVectorsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            VectorStore vectorStore, VectorOutbox vectorOutbox, JobRunListener jobRunListener) {
        return ActionSteps.step("queueVectorsStep", jobRepository, transactionManager, jobRunListener, () -> {
            vectorStore.ensureReady();
            return vectorOutbox.queue(vectorStore.version().id());
        });
    }

    /** Reindex: empty this version's index and queue every verified memory again. */
    @Bean
    Step resetVectorsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            VectorStore vectorStore, VectorOutbox vectorOutbox, JobRunListener jobRunListener) {
        return ActionSteps.step("resetVectorsStep", jobRepository, transactionManager, jobRunListener, () -> {
            vectorStore.ensureReady();
            vectorStore.clear();
            return vectorOutbox.rebuild(vectorStore.version().id());
        });
    }

    @Bean
    Step embedMemoriesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            CodeMemoryProperties properties, PendingItemReader<VectorWork> vectorWorkReader,
            VectorOutboxWriter vectorOutboxWriter, EmbedProgressListener embedProgressListener,
            JobRunListener jobRunListener) {
        return new StepBuilder("embedMemoriesStep", jobRepository)
            .<VectorWork, VectorWork>chunk(properties.embedding().chunkSize())
            .transactionManager(transactionManager)
            .reader(vectorWorkReader)
            .writer(vectorOutboxWriter)
            .listener((org.springframework.batch.core.listener.StepExecutionListener) embedProgressListener)
            .listener((org.springframework.batch.core.listener.ItemWriteListener<Object>) embedProgressListener)
            .listener(jobRunListener)
            .build();
    }

    @Bean
    @StepScope
    PendingItemReader<VectorWork> vectorWorkReader(JobDatabase database, EmbeddingService embeddingService,
            VectorComponents components) {
        String version = embeddingService.version().id();
        MemoryTexts texts = components.memoryTexts();
        return PendingItemReader.paged(database.connections(), VectorOutbox.pendingSql(version),
                c -> VectorWorkQueries.vectorWork(c, version, texts));
    }

    @Bean
    @StepScope
    VectorOutboxWriter vectorOutboxWriter(JobDatabase database, VectorStore vectorStore,
            EmbeddingService embeddingService) {
        return new VectorOutboxWriter(database.connections(), vectorStore, embeddingService);
    }

    @Bean
    @StepScope
    EmbedProgressListener embedProgressListener(JobDatabase database, EmbeddingService embeddingService,
            ConsoleProgress consoleProgress) {
        String version = embeddingService.version().id();
        return new EmbedProgressListener(
                () -> database.read("count pending vectors", c -> VectorOutbox.pendingCount(c, version)),
                consoleProgress);
    }

}
