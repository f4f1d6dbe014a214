package dev.codememory.jobs.runtime;

import org.springframework.batch.core.listener.StepListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemReader;
import org.springframework.batch.infrastructure.item.ItemWriter;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The one shape of the graduation's chunk steps: read, process and write in chunks of a
 * given size, in the job's transaction manager, reported by the job's listener (and any
 * chunk listener the step needs besides). The counterpart of {@link ActionSteps}.
 */
public final class ChunkSteps {

    private final JobRepository jobRepository;

    private final PlatformTransactionManager transactionManager;

    private final JobRunListener jobRunListener;

    public ChunkSteps(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobRunListener jobRunListener) {
        this.jobRepository = jobRepository;
        this.transactionManager = transactionManager;
        this.jobRunListener = jobRunListener;
    }

    public <I, O> Step step(String name, int chunkSize, ItemReader<? extends I> reader,
            ItemProcessor<? super I, ? extends O> processor, ItemWriter<? super O> writer, StepListener... listeners) {
        var builder = new StepBuilder(name, jobRepository).<I, O>chunk(chunkSize)
            .transactionManager(transactionManager)
            .reader(reader)
            .processor(processor)
            .writer(writer);
        for (StepListener listener : listeners) {
            builder.listener(listener);
        }
        return builder.listener(jobRunListener).build();
    }

}
