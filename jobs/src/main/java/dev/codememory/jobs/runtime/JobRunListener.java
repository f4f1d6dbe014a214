package dev.codememory.jobs.runtime;

import dev.codememory.writers.runs.DuckDbRunLedger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * Records every job run in {@code build_runs} and each step's counts and time in
 * {@code pipeline_metrics}, logs one line per step and per job, and tells the
 * {@link ConsoleProgress} (which shows them only to a command that asked). It also counts
 * what the store holds before and after the run ({@link #before()}, {@link #after()}) for
 * the command's summary. The DuckDB session is opened and closed around the run by
 * {@link JobRunner}.
 */
public class JobRunListener implements JobExecutionListener, StepExecutionListener {

    private static final Logger log = LoggerFactory.getLogger(JobRunListener.class);

    /**
     * What the store holds: events, the sessions they belong to, and verified, active
     * memories.
     */
    public record Totals(long events, long sessions, long memories) {

        static final Totals UNKNOWN = new Totals(-1, -1, -1);

    }

    private final JobDatabase database;

    private final DuckDbRunLedger ledger;

    private final ConsoleProgress progress;

    private volatile Totals before = Totals.UNKNOWN;

    private volatile Totals after = Totals.UNKNOWN;

    private volatile JobExecution running;

    public JobRunListener(JobDatabase database, ConsoleProgress progress) {
        this.database = database;
        this.ledger = new DuckDbRunLedger(database.connections());
        this.progress = progress;
    }

    @Override
    public void beforeJob(JobExecution jobExecution) {
        running = jobExecution;
        ledger.jobStarted(jobExecution.getJobInstance().getJobName(), jobExecution.getId(), utcNow());
        before = totals();
        after = Totals.UNKNOWN;
    }

    @Override
    public void afterJob(JobExecution jobExecution) {
        String jobName = jobExecution.getJobInstance().getJobName();
        if (database.isOpen()) {
            String error = jobExecution.getAllFailureExceptions()
                .stream()
                .map(e -> e.getClass().getSimpleName() + ": " + e.getMessage())
                .collect(Collectors.joining("; "));
            ledger.jobFinished(jobName, jobExecution.getId(), utcNow(), jobExecution.getStatus().name(),
                    error.isEmpty() ? null : error);
        }
        after = totals();
        running = null;
        log.info("job {} execution {} finished: {}", jobName, jobExecution.getId(), jobExecution.getStatus());
    }

    /**
     * The run this process is running now, or null: in a job repository shared with other
     * processes, the latest run of a job may be theirs.
     */
    public JobExecution running() {
        return running;
    }

    @Override
    public void beforeStep(StepExecution step) {
        progress.stepStarted(step);
    }

    @Override
    public ExitStatus afterStep(StepExecution step) {
        long durationMs = step.getStartTime() == null ? 0
                : Duration.between(step.getStartTime(), java.time.LocalDateTime.now()).toMillis();
        log.info("step {}: {} read={} written={} filtered={} skipped={} commits={} in {} ms", step.getStepName(),
                step.getStatus(), step.getReadCount(), step.getWriteCount(), step.getFilterCount(), step.getSkipCount(),
                step.getCommitCount(), durationMs);
        if (database.isOpen()) {
            String buildId = DuckDbRunLedger.buildId(step.getJobExecution().getJobInstance().getJobName(),
                    step.getJobExecutionId());
            ledger.stepFinished(buildId,
                    new DuckDbRunLedger.StepMetrics(step.getStepName(), step.getId(), step.getStatus().name(),
                            step.getReadCount(), step.getWriteCount(), step.getFilterCount(), step.getSkipCount(),
                            step.getCommitCount(), durationMs));
        }
        progress.stepFinished(step);
        return step.getExitStatus();
    }

    /** What the store held when the last job started ({@code -1} when unknown). */
    public Totals before() {
        return before;
    }

    /** What the store held when the last job ended ({@code -1} when unknown). */
    public Totals after() {
        return after;
    }

    private Totals totals() {
        if (!database.isOpen()) {
            return Totals.UNKNOWN;
        }
        try (Connection c = database.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("""
                        SELECT (SELECT count(*) FROM events), (SELECT count(DISTINCT session_id) FROM events),
                               (SELECT count(*) FROM entries WHERE stage = 'verified' AND status = 'active')""")) {
            rs.next();
            return new Totals(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
        catch (SQLException | RuntimeException e) {
            log.warn("cannot count the store's contents: {}", e.getMessage());
            return Totals.UNKNOWN;
        }
    }

    private static LocalDateTime utcNow() {
        return LocalDateTime.now(ZoneOffset.UTC);
    }

}
