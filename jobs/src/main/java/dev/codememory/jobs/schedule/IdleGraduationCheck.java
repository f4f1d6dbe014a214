package dev.codememory.jobs.schedule;

import dev.codememory.jobs.runtime.CodeMemoryProperties;
import dev.codememory.jobs.runtime.JobRunner;
import java.time.Instant;
import java.time.ZoneId;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * Fired every minute by Quartz: graduates once the user has gone quiet (new events since
 * the last graduation, none for the idle period).
 */
@DisallowConcurrentExecution
public class IdleGraduationCheck extends QuartzJobBean {

    private final JobRunner jobRunner;

    private final IdleTracker idleTracker;

    private final CodeMemoryProperties properties;

    public IdleGraduationCheck(JobRunner jobRunner, IdleTracker idleTracker, CodeMemoryProperties properties) {
        this.jobRunner = jobRunner;
        this.idleTracker = idleTracker;
        this.properties = properties;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        JobExecution last = jobRunner.lastExecution("graduate");
        Instant lastStart = last == null || last.getStartTime() == null ? null
                : last.getStartTime().atZone(ZoneId.systemDefault()).toInstant();
        if (idleTracker.idleSinceActivity(Instant.now(), properties.schedule().idleAfter(), lastStart)) {
            ScheduledBatchLaunch.runQuietly(jobRunner, "graduate");
        }
    }

}
