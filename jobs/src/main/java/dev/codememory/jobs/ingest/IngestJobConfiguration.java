package dev.codememory.jobs.ingest;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.jobs.runtime.ActionSteps;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.processors.ingest.SpoolLineProcessor;
import dev.codememory.readers.spool.SpoolLineReader;
import dev.codememory.writers.events.DuckDbIngestWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.listener.ExecutionContextPromotionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code --job=ingest}: spool → L0 {@code events}. Seal the spool file hooks append to,
 * load every sealed file (events, or rejects with reasons), then delete the files whose
 * rows are committed.
 */
@Configuration(proxyBeanMethods = false)
public class IngestJobConfiguration {

    static final String LAST_FILE_KEY = "spoolLineReader." + SpoolLineReader.LAST_FILE_KEY;

    @Bean
    Job ingestJob(JobRepository jobRepository, Step sealSpoolStep, Step ingestSpoolStep, Step deleteIngestedSpoolStep,
            JobRunListener jobRunListener) {
        return new JobBuilder("ingestJob", jobRepository).listener(jobRunListener)
            .start(sealSpoolStep)
            .next(ingestSpoolStep)
            .next(deleteIngestedSpoolStep)
            .build();
    }

    @Bean
    Spool spoolAppender(CodeMemoryHome home) {
        return Spool.forHome(home);
    }

    /**
     * Closes the file hooks append to, so ingest reads only files no hook writes again.
     */
    @Bean
    Step sealSpoolStep(JobRepository jobRepository, PlatformTransactionManager transactionManager, Spool spool,
            JobRunListener jobRunListener) {
        return ActionSteps.step("sealSpoolStep", jobRepository, transactionManager, jobRunListener, () -> {
            spool.seal();
            return 0;
        });
    }

    @Bean
    Step ingestSpoolStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            CodeMemoryProperties properties, SpoolLineReader spoolLineReader, SpoolLineProcessor spoolLineProcessor,
            DuckDbIngestWriter duckDbIngestWriter, JobRunListener jobRunListener) {
        ExecutionContextPromotionListener promoteLastFile = new ExecutionContextPromotionListener();
        promoteLastFile.setKeys(new String[] { LAST_FILE_KEY });
        return new StepBuilder("ingestSpoolStep", jobRepository)
            .<SpoolLine, IngestRecord>chunk(properties.ingest().chunkSize())
            .transactionManager(transactionManager)
            .reader(spoolLineReader)
            .processor(spoolLineProcessor)
            .writer(duckDbIngestWriter)
            .listener(promoteLastFile)
            .listener(jobRunListener)
            .build();
    }

    @Bean
    Step deleteIngestedSpoolStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            Spool spool, JobRunListener jobRunListener) {
        return new StepBuilder("deleteIngestedSpoolStep", jobRepository)
            .tasklet(new DeleteIngestedSpoolTasklet(spool, LAST_FILE_KEY), transactionManager)
            .listener(jobRunListener)
            .build();
    }

    @Bean
    @StepScope
    SpoolLineReader spoolLineReader(Spool spool) {
        return new SpoolLineReader(() -> {
            try {
                return spool.sealedFiles();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Bean
    SpoolLineProcessor spoolLineProcessor(ProjectResolver projectResolver) {
        return new SpoolLineProcessor(projectResolver);
    }

    @Bean
    DuckDbIngestWriter duckDbIngestWriter(JobDatabase database) {
        return new DuckDbIngestWriter(database.connections());
    }

}
