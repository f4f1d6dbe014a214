package dev.codememory.jobs.schedule;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * What a Quartz trigger fires to run one batch job by its command name (ingest every
 * minute, graduate nightly); a busy database just waits for the next fire. A Quartz job,
 * named for what it does so it is not taken for a batch job.
 */
@DisallowConcurrentExecution
public class ScheduledBatchLaunch extends QuartzJobBean {

    static final String JOB_KEY = "job";

    private static final Logger log = LoggerFactory.getLogger(ScheduledBatchLaunch.class);

    private final JobRunner jobRunner;

    private final IdleTracker idleTracker;

    public ScheduledBatchLaunch(JobRunner jobRunner, IdleTracker idleTracker) {
        this.jobRunner = jobRunner;
        this.idleTracker = idleTracker;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        String job = context.getMergedJobDataMap().getString(JOB_KEY);
        if (log.isDebugEnabled()) {
            log.debug("{} fired for {} on {}", job, context.getScheduledFireTime().toInstant(), instanceId(context));
        }
        idleTracker.observe();
        runQuietly(jobRunner, job);
    }

    private static String instanceId(JobExecutionContext context) {
        try {
            return context.getScheduler().getSchedulerInstanceId();
        }
        catch (org.quartz.SchedulerException e) {
            return "?";
        }
    }

    /**
     * The scheduler's boundary: a failure is logged and the next fire tries again (and
     * resumes the job).
     */
    static void runQuietly(JobRunner jobRunner, String job) {
        try {
            var execution = jobRunner.run(job);
            log.info("scheduled job {} ended {}", job, execution.getStatus());
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            log.info("scheduled job {} skipped: {}", job, e.getMessage());
        }
        catch (RuntimeException e) {
            log.error("scheduled job {} failed to run", job, e);
        }
    }

}
