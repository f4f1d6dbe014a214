package dev.codememory.jobs.graduate;

import dev.codememory.jobs.runtime.JobRunListener;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code --job=graduate}: events climb from raw to verified, searchable memories. Today: ingest. The graduation
 * stages (extract, validate, align evidence, embed, consolidate) join here, in that order, as they are built.
 */
@Configuration(proxyBeanMethods = false)
public class GraduationJobConfiguration {

    @Bean
    Job graduationJob(JobRepository jobRepository, Step sealSpoolStep, Step ingestSpoolStep,
            Step deleteIngestedSpoolStep, JobRunListener jobRunListener) {
        return new JobBuilder("graduationJob", jobRepository)
                .listener(jobRunListener)
                .start(sealSpoolStep)
                .next(ingestSpoolStep)
                .next(deleteIngestedSpoolStep)
                .build();
    }
}
