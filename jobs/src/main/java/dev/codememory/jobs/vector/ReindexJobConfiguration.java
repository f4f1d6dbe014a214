package dev.codememory.jobs.vector;

import dev.codememory.jobs.runtime.JobRunListener;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code --job=reindex}: rebuilds every vector of the current embedding version from
 * DuckDB — after a model change, or into a fresh Milvus. Restartable: a killed run
 * resumes embedding where the outbox says it stopped. It first cites the verified
 * memories that have no citation yet (a home graduated before citations existed).
 */
@Configuration(proxyBeanMethods = false)
public class ReindexJobConfiguration {

    @Bean
    Job reindexJob(JobRepository jobRepository, JobRunListener jobRunListener, Step citeMemoriesStep,
            Step resetVectorsStep, Step embedMemoriesStep) {
        return new JobBuilder("reindexJob", jobRepository).listener(jobRunListener)
            .start(citeMemoriesStep)
            .next(resetVectorsStep)
            .next(embedMemoriesStep)
            .build();
    }

}
