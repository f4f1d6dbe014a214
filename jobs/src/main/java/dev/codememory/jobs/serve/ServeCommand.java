package dev.codememory.jobs.serve;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.config.team.TeamProperties;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import dev.codememory.jobs.schedule.KeptTriggers;
import dev.codememory.jobs.schedule.ScheduleConfiguration;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.quartz.CronExpression;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * {@code serve}: the resident process of a home, in the foreground until SIGTERM. It owns
 * the database (holds its session for good), keeps the embedding model and the query
 * indexes warm ({@link ResidentQueries}, refreshed after every job), answers the hook and
 * the read commands on {@code serve.sock} ({@link ServeServer}) and runs the Quartz
 * schedule. One per home: a second one finds {@code serve.lock} taken and refuses, naming
 * the first. A nightly run missed while the process was down is caught up at start. On
 * shutdown a running job is asked to stop at its next chunk boundary (it ends STOPPED and
 * the next run resumes it), the scheduler waits for it, and the socket goes.
 */
@Component
public class ServeCommand implements SmartLifecycle, ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

    private final Scheduler scheduler;

    private final JobRunner jobRunner;

    private final CodeMemoryProperties properties;

    private final CodeMemoryHome home;

    private final ResidentQueries resident;

    private final ServeRequests requests;

    private final ServeSurface viewer;

    private final CountDownLatch stopped = new CountDownLatch(1);

    /** How long a running job may take to end by itself when serve shuts down. */
    static final Duration JOB_GRACE = Duration.ofSeconds(2);

    private volatile boolean serving;

    private volatile ProcessLock serveLock;

    private final TeamProperties team;

    private volatile ServeServer server;

    public ServeCommand(Scheduler scheduler, JobRunner jobRunner, CodeMemoryProperties properties, CodeMemoryHome home,
            ResidentQueries resident, ServeRequests requests, ServeSurface viewer, TeamProperties team) {
        this.team = team;
        this.scheduler = scheduler;
        this.jobRunner = jobRunner;
        this.properties = properties;
        this.home = home;
        this.resident = resident;
        this.requests = requests;
        this.viewer = viewer;
    }

    /** The lock file that makes a serve process the only one of its home. */
    public static Path lockFile(CodeMemoryHome home) {
        return home.root().resolve("serve.lock");
    }

    /** {@code serve} on the command line: serves until stopped, its exit code then. */
    @Override
    public void run(ApplicationArguments args) {
        if (args.getNonOptionArgs().equals(List.of("serve"))) {
            CodeMemoryApplication.setExitCode(serve());
        }
    }

    public int serve() {
        Path lockFile = lockFile(home);
        serveLock = ProcessLock.tryAcquire(lockFile).orElse(null);
        if (serveLock == null) {
            String holder = ProcessLock.holder(lockFile);
            System.err.println("code-memory serve is already running for " + home.root()
                    + (holder.isEmpty() ? "" : " (process " + holder + ")")
                    + "; one serve per home. The hook, the commands and --job=NAME already go through it.");
            return ExitCode.BUSY;
        }
        try {
            resident.start();
        }
        catch (DatabaseLockedException e) {
            System.err.println("serve not started: " + e.getMessage());
            serveLock.close();
            return ExitCode.BUSY;
        }
        resident.skipCompactionWhile(jobRunner::running);
        jobRunner.afterEachRun((job, execution) -> {
            // ingest adds events, not memories: the local indexes do not change, but the
            // team's may have meanwhile
            if ("ingest".equals(job)) {
                try {
                    resident.refreshTeam();
                }
                catch (RuntimeException e) {
                    log.warn("refreshing the team memories failed; the next ingest retries: {}", e.getMessage());
                }
            }
            else {
                try {
                    resident.refresh(); // before the job counts as done: a query right
                                        // after it sees its memories
                }
                catch (RuntimeException e) {
                    log.warn("refreshing the indexes after {} failed; the next job retries: {}", job, e.getMessage());
                }
            }
        });
        try {
            server = ServeServer.start(home.root().resolve(ServeClient.SOCKET), requests);
            serving = true;
            log.info("answering on {}", server.socket());
            viewer.start();
            if (!properties.schedule().enabled()) {
                log.info("the schedule is off (code-memory.schedule.enabled=false): jobs run only when asked for");
                stopped.await();
                return 0;
            }
            if (team.publishesOnSchedule()) {
                // a schedule kept in PostgreSQL has it from the last start: kept unless
                // the interval changed
                KeptTriggers.keep(scheduler, ScheduleConfiguration.publishJobDetail(),
                        ScheduleConfiguration.publishTrigger(team.publishEvery()));
                log.info("publishing {} project(s) to the team store every {}", team.projects().size(),
                        team.publishEvery());
            }
            else {
                // a kept schedule may still have it from when this home published
                scheduler.deleteJob(JobKey.jobKey(ScheduleConfiguration.PUBLISH));
            }
            scheduler.start();
            if (scheduler.getMetaData().isJobStoreClustered()) {
                log.info("schedule kept in the job repository's database, clustered as {} (this serve: {})",
                        scheduler.getSchedulerName(), scheduler.getSchedulerInstanceId());
            }
            log.info("serving: ingest every {}, graduate after {} idle and at cron '{}'",
                    properties.schedule().ingestEvery(), properties.schedule().idleAfter(),
                    properties.schedule().nightlyCron());
            if (missedNightly(Instant.now())) {
                log.info("the last nightly graduation was missed; catching up now");
                scheduler.triggerJob(JobKey.jobKey(ScheduleConfiguration.NIGHTLY));
            }
            stopped.await();
            return 0;
        }
        catch (SchedulerException e) {
            log.error("cannot start the scheduler", e);
            return 1;
        }
        catch (java.io.IOException e) {
            log.error("cannot open the serve socket", e);
            System.err.println("serve not started: cannot open its socket: " + e.getMessage());
            return 1;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /**
     * True when the most recent nightly fire time has passed with no graduation started
     * since.
     */
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

    /**
     * The latest fire time of a Quartz cron at or before {@code now} within the past 8
     * days, or null.
     */
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
        }
        catch (ParseException e) {
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
        log.info("shutting down: no new fires; a running job has {} s to end, then stops at its next chunk",
                JOB_GRACE.toSeconds());
        try {
            scheduler.standby();
        }
        catch (SchedulerException e) {
            log.warn("scheduler standby: {}", e.getMessage());
        }
        jobRunner.drain(JOB_GRACE);
        try {
            scheduler.shutdown(true);
        }
        catch (SchedulerException e) {
            log.warn("scheduler shutdown: {}", e.getMessage());
        }
        viewer.stop();
        if (server != null) {
            server.close();
        }
        resident.stop();
        if (serveLock != null) {
            serveLock.close();
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
