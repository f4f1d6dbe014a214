package dev.codememory.jobs.runtime;

import dev.codememory.writers.runs.DuckDbRunLedger;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;

/**
 * Records every job run in {@code build_runs} and each step's counts and time in {@code pipeline_metrics}, and
 * logs one line per step and per job. The DuckDB session is opened and closed around the run by {@link JobRunner}.
 */
public class JobRunListener implements JobExecutionListener, StepExecutionListener {

    private static final Logger log = LoggerFactory.getLogger(JobRunListener.class);

    private final DuckDbSessions sessions;
    private final DuckDbRunLedger ledger;
    public JobRunListener(DuckDbSessions sessions) {
        this.sessions = sessions;
        this.ledger = new DuckDbRunLedger(sessions.connections());
    }

    @Override
    public void beforeJob(JobExecution jobExecution) {
        ledger.jobStarted(jobExecution.getJobInstance().getJobName(), jobExecution.getId(), utcNow());
    }

    @Override
    public void afterJob(JobExecution jobExecution) {
        String jobName = jobExecution.getJobInstance().getJobName();
        if (sessions.isOpen()) {
            String error = jobExecution.getAllFailureExceptions().stream()
                    .map(e -> e.getClass().getSimpleName() + ": " + e.getMessage())
                    .collect(Collectors.joining("; "));
            ledger.jobFinished(jobName, jobExecution.getId(), utcNow(), jobExecution.getStatus().name(),
                    error.isEmpty() ? null : error);
        }
        log.info("job {} execution {} finished: {}", jobName, jobExecution.getId(), jobExecution.getStatus());
    }

    @Override
    public ExitStatus afterStep(StepExecution step) {
        long durationMs = step.getStartTime() == null ? 0
                : Duration.between(step.getStartTime(), java.time.LocalDateTime.now()).toMillis();
        log.info("step {}: {} read={} written={} filtered={} skipped={} commits={} in {} ms", step.getStepName(),
                step.getStatus(), step.getReadCount(), step.getWriteCount(), step.getFilterCount(),
                step.getSkipCount(), step.getCommitCount(), durationMs);
        if (sessions.isOpen()) {
            String buildId = DuckDbRunLedger.buildId(step.getJobExecution().getJobInstance().getJobName(),
                    step.getJobExecutionId());
            ledger.stepFinished(buildId, new DuckDbRunLedger.StepMetrics(step.getStepName(), step.getId(),
                    step.getStatus().name(), step.getReadCount(), step.getWriteCount(), step.getFilterCount(),
                    step.getSkipCount(), step.getCommitCount(), durationMs));
        }
        return step.getExitStatus();
    }

    private static LocalDateTime utcNow() {
        return LocalDateTime.now(ZoneOffset.UTC);
    }
}
