package dev.codememory.jobs.schedule;

import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.jobs.runtime.JobRunner;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * Fired every minute by Quartz: graduates once the user has gone quiet (new events since
 * the last graduation, none for the idle period), or once a session has ended since the
 * last graduation and {@code code-memory.schedule.after-session-end} has passed, so the
 * next session finds the finished one as memory.
 */
@DisallowConcurrentExecution
public class IdleGraduationCheck extends QuartzJobBean {

    private static final Logger log = LoggerFactory.getLogger(IdleGraduationCheck.class);

    private final JobRunner jobRunner;

    private final IdleTracker idleTracker;

    private final CodeMemoryProperties properties;

    private final ObjectProvider<LastSessionEnd> sessionEnds;

    public IdleGraduationCheck(JobRunner jobRunner, IdleTracker idleTracker, CodeMemoryProperties properties,
            ObjectProvider<LastSessionEnd> sessionEnds) {
        this.jobRunner = jobRunner;
        this.idleTracker = idleTracker;
        this.properties = properties;
        this.sessionEnds = sessionEnds;
    }

    @Override
    protected void executeInternal(JobExecutionContext context) {
        JobExecution last = jobRunner.lastExecution("graduate");
        Instant lastStart = last == null || last.getStartTime() == null ? null
                : last.getStartTime().atZone(ZoneId.systemDefault()).toInstant();
        Instant now = Instant.now();
        if (idleTracker.idleSinceActivity(now, properties.schedule().idleAfter(), lastStart)) {
            ScheduledBatchLaunch.runQuietly(jobRunner, "graduate");
        }
        else if (sessionEndedSince(lastStart, now)) {
            log.info("a session ended: graduating now rather than after the idle period");
            ScheduledBatchLaunch.runQuietly(jobRunner, "graduate");
        }
    }

    /**
     * True when a SessionEnd was captured after the last graduation started and
     * {@code after-session-end} ago or earlier.
     */
    boolean sessionEndedSince(Instant lastGraduationStart, Instant now) {
        Duration after = properties.schedule().afterSessionEnd();
        LastSessionEnd ends = sessionEnds.getIfAvailable();
        return !after.isZero() && ends != null && endedSince(ends.at(), lastGraduationStart, after, now);
    }

    static boolean endedSince(Instant ended, Instant lastGraduationStart, Duration after, Instant now) {
        return ended != null && (lastGraduationStart == null || ended.isAfter(lastGraduationStart))
                && !ended.plus(after).isAfter(now);
    }

    /** When the newest session ended, as far as ingest has seen (null: none). */
    @FunctionalInterface
    public interface LastSessionEnd {

        Instant at();

    }

}
