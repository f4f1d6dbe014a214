package dev.codememory.jobs.schedule;

import dev.codememory.jobs.runtime.CodeMemoryProperties;
import dev.codememory.jobs.runtime.JobRunner;
import java.text.ParseException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.concurrent.CountDownLatch;
import org.quartz.CronExpression;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * {@code serve}: runs the Quartz scheduler in the foreground until SIGTERM. A nightly run missed while the
 * process was down is caught up at start. On shutdown a running job is asked to stop at its next chunk boundary
 * (it ends STOPPED and the next run resumes it) and the scheduler waits for it.
 */
@Component
public class ServeCommand implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

    private final Scheduler scheduler;
    private final JobRunner jobRunner;
    private final JobOperator jobOperator;
    private final CodeMemoryProperties properties;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean serving;

    public ServeCommand(Scheduler scheduler, JobRunner jobRunner, JobOperator jobOperator,
            CodeMemoryProperties properties) {
        this.scheduler = scheduler;
        this.jobRunner = jobRunner;
        this.jobOperator = jobOperator;
        this.properties = properties;
    }

    public int serve() {
        try {
            serving = true;
            scheduler.start();
            log.info("serving: ingest every {}, graduate after {} idle and at cron '{}'",
                    properties.schedule().ingestEvery(), properties.schedule().idleAfter(),
                    properties.schedule().nightlyCron());
            if (missedNightly(Instant.now())) {
                log.info("the last nightly graduation was missed; catching up now");
                scheduler.triggerJob(JobKey.jobKey(ScheduleConfiguration.NIGHTLY));
            }
            stopped.await();
            return 0;
        } catch (SchedulerException e) {
            log.error("cannot start the scheduler", e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** True when the most recent nightly fire time has passed with no graduation started since. */
    boolean missedNightly(Instant now) {
        Instant previousFire = previousFire(properties.schedule().nightlyCron(), now);
        if (previousFire == null) {
            return false;
        }
        JobExecution last = jobRunner.lastExecution("graduate");
        if (last == null || last.getStartTime() == null) {
            return true;
        }
        Instant lastStart = last.getStartTime().atZone(ZoneId.systemDefault()).toInstant();
        return lastStart.isBefore(previousFire) || last.getStatus() == BatchStatus.FAILED;
    }

    /** The latest fire time of a Quartz cron at or before {@code now} within the past 8 days, or null. */
    static Instant previousFire(String cron, Instant now) {
        try {
            CronExpression expression = new CronExpression(cron);
            Date t = expression.getNextValidTimeAfter(Date.from(now.minusSeconds(8 * 24 * 3600)));
            Date previous = null;
            while (t != null && !t.toInstant().isAfter(now)) {
                previous = t;
                t = expression.getNextValidTimeAfter(t);
            }
            return previous == null ? null : previous.toInstant();
        } catch (ParseException e) {
            throw new IllegalArgumentException("code-memory.schedule.nightly-cron is not a Quartz cron: " + cron, e);
        }
    }

    @Override
    public void start() {
        // the scheduler starts only when the serve command runs
    }

    @Override
    public void stop() {
        if (!serving) {
            return;
        }
        log.info("shutting down: asking running jobs to stop at the next chunk");
        for (String job : jobRunner.jobNames()) {
            JobExecution last = jobRunner.lastExecution(job);
            if (last != null && last.getStatus().isRunning()) {
                try {
                    jobOperator.stop(last);
                } catch (Exception e) {
                    log.warn("cannot stop job {} execution {}: {}", job, last.getId(), e.getMessage());
                }
            }
        }
        try {
            scheduler.shutdown(true);
        } catch (SchedulerException e) {
            log.warn("scheduler shutdown: {}", e.getMessage());
        }
        serving = false;
        stopped.countDown();
    }

    @Override
    public boolean isRunning() {
        return serving;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }
}
