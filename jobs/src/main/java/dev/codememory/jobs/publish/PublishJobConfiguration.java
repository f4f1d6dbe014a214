package dev.codememory.jobs.publish;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.team.TeamProperties;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.jobs.runtime.ActionSteps;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.processors.team.ShareableMemoryProcessor;
import dev.codememory.processors.team.TeamProjectKey;
import dev.codememory.readers.pending.PendingItemReader;
import dev.codememory.readers.team.PublishQueries;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.team.TeamStores;
import dev.codememory.writers.team.PostgresTeamStore;
import dev.codememory.writers.team.TeamPublishWriter;
import dev.codememory.writers.team.TeamWithdrawWriter;
import java.time.Duration;
import org.springframework.batch.core.configuration.annotation.JobScope;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code --job=publish}: pushes this home's shareable memories of the projects listed in
 * {@code code-memory.team.projects} to the team store, and withdraws the published ones
 * that are gone here. Restartable: each step reads what is still pending
 * ({@code team_published} records every chunk the team store acknowledged), and every
 * write is an upsert or a tombstone by memory id.
 */
@Configuration(proxyBeanMethods = false)
public class PublishJobConfiguration {

    /** Milvus calls of a publish job: as the embed step's. */
    static final Duration MILVUS_CONNECT = Duration.ofSeconds(10);

    static final Duration MILVUS_CALL = Duration.ofSeconds(20);

    @Bean
    Job publishJob(JobRepository jobRepository, JobRunListener jobRunListener, Step prepareTeamStoreStep,
            Step publishMemoriesStep, Step withdrawMemoriesStep, Step sealTeamVectorsStep) {
        return new JobBuilder("publishJob", jobRepository).listener(jobRunListener)
            .start(prepareTeamStoreStep)
            .next(publishMemoriesStep)
            .next(withdrawMemoriesStep)
            .next(sealTeamVectorsStep)
            .build();
    }

    /** Fails fast when team memory is off; creates the team tables and collection. */
    @Bean
    Step prepareTeamStoreStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobRunListener jobRunListener, TeamProperties team, PostgresTeamStore teamStore, TeamVectors teamVectors) {
        return ActionSteps.step("prepareTeamStoreStep", jobRepository, transactionManager, jobRunListener, () -> {
            if (!team.enabled()) {
                throw new IllegalStateException("team memory is off: set code-memory.team.enabled=true with"
                        + " code-memory.team.postgres.url and code-memory.team.milvus.uri");
            }
            teamStore.ensureReady();
            teamVectors.store().ensureReady();
            return 0;
        });
    }

    @Bean
    Step publishMemoriesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            TeamProperties team, PendingItemReader<SharedMemory> shareableMemoryReader,
            TeamPublishWriter teamPublishWriter, JobRunListener jobRunListener) {
        return new StepBuilder("publishMemoriesStep", jobRepository).<SharedMemory, SharedMemory>chunk(team.chunkSize())
            .transactionManager(transactionManager)
            .reader(shareableMemoryReader)
            .processor(new ShareableMemoryProcessor(Redactor.defaults(), team.kinds()))
            .writer(teamPublishWriter)
            .listener(jobRunListener)
            .build();
    }

    @Bean
    Step withdrawMemoriesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            TeamProperties team, PendingItemReader<String> withdrawnMemoryReader, TeamWithdrawWriter teamWithdrawWriter,
            JobRunListener jobRunListener) {
        return new StepBuilder("withdrawMemoriesStep", jobRepository).<String, String>chunk(team.chunkSize())
            .transactionManager(transactionManager)
            .reader(withdrawnMemoryReader)
            .writer(teamWithdrawWriter)
            .listener(jobRunListener)
            .build();
    }

    /**
     * Seals what the run wrote to the team's collection, so that searches use its index.
     */
    @Bean
    Step sealTeamVectorsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobRunListener jobRunListener, TeamVectors teamVectors) {
        return ActionSteps.step("sealTeamVectorsStep", jobRepository, transactionManager, jobRunListener, () -> {
            teamVectors.store().flush();
            return 0;
        });
    }

    @Bean
    @StepScope
    PendingItemReader<SharedMemory> shareableMemoryReader(JobDatabase database, TeamProperties team,
            VectorComponents components) {
        return new PendingItemReader<>(database.connections(),
                PublishQueries.pendingSql(team.projects(), team.kinds(), components.version().id()),
                Math.max(PendingItemReader.PAGE, team.chunkSize()), PublishQueries::page);
    }

    @Bean
    @StepScope
    PendingItemReader<String> withdrawnMemoryReader(JobDatabase database, TeamProperties team) {
        return new PendingItemReader<>(database.connections(), PublishQueries.WITHDRAWN_SQL,
                Math.max(PendingItemReader.PAGE, team.chunkSize()), PublishQueries::withdrawnPage);
    }

    @Bean
    @StepScope
    TeamPublishWriter teamPublishWriter(JobDatabase database, PostgresTeamStore teamStore, TeamVectors teamVectors,
            VectorStore vectorStore, TeamProperties team, EmbeddingService embeddingService,
            VectorComponents components) {
        return new TeamPublishWriter(database.connections(), teamStore, teamVectors.store(), vectorStore,
                TeamProjectKey::of, team.author(), embeddingService, components.memoryTexts());
    }

    @Bean
    @StepScope
    TeamWithdrawWriter teamWithdrawWriter(JobDatabase database, PostgresTeamStore teamStore, TeamVectors teamVectors) {
        return new TeamWithdrawWriter(database.connections(), teamStore, teamVectors.store());
    }

    @Bean
    TeamStores teamStores(TeamProperties team, VectorComponents components) {
        return new TeamStores(team, components.version());
    }

    @Bean
    PostgresTeamStore teamStore(TeamStores teamStores) {
        return teamStores.postgres();
    }

    /** The team's vector collection, connected for one job run and closed at its end. */
    @Bean(destroyMethod = "close")
    @JobScope
    TeamVectors teamVectors(TeamStores teamStores) {
        return new TeamVectors(() -> teamStores.vectors(MILVUS_CONNECT, MILVUS_CALL));
    }

}
