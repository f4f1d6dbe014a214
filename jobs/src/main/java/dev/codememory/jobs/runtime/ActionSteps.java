package dev.codememory.jobs.runtime;

import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Steps that take one action rather than read, process and write chunks (seal the spool,
 * clear rows of old rules, assign citations, queue vectors): a tasklet whose write count
 * is what the action reports it wrote, reported like every other step.
 */
public final class ActionSteps {

    private ActionSteps() {
    }

    /** The action: returns how many rows (or files) it wrote. */
    @FunctionalInterface
    public interface Action {

        long run() throws Exception;

    }

    public static Step step(String name, JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobRunListener jobRunListener, Action action) {
        return new StepBuilder(name, jobRepository).tasklet((contribution, context) -> {
            contribution.incrementWriteCount(action.run());
            return RepeatStatus.FINISHED;
        }, transactionManager).listener(jobRunListener).build();
    }

}
