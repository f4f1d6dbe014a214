package dev.codememory.jobs.schedule;

import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.readers.graduation.SessionEndQueries;

import dev.codememory.config.settings.CodeMemoryProperties;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What {@code serve} runs, as Quartz jobs and triggers (RAMJobStore, one worker thread,
 * so never two jobs at once): ingest every minute, graduation once the user has been idle
 * for 30 minutes or a minute after a session ended, and nightly at 03:00.
 */
@Configuration(proxyBeanMethods = false)
public class ScheduleConfiguration {

    static final String INGEST = "ingest";
    static final String IDLE = "idle-graduation";

    public static final String NIGHTLY = "nightly-graduation";

    public static final String PUBLISH = "team-publish";

    @Bean
    JobDetail ingestJobDetail() {
        return JobBuilder.newJob(ScheduledBatchLaunch.class)
            .withIdentity(INGEST)
            .usingJobData(ScheduledBatchLaunch.JOB_KEY, "ingest")
            .storeDurably()
            .build();
    }

    @Bean
    Trigger ingestTrigger(JobDetail ingestJobDetail, CodeMemoryProperties properties) {
        return TriggerBuilder.newTrigger()
            .forJob(ingestJobDetail)
            .withIdentity(INGEST)
            .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(properties.schedule().ingestEvery().toMillis())
                .repeatForever()
                .withMisfireHandlingInstructionNextWithRemainingCount())
            .build();
    }

    @Bean
    JobDetail idleJobDetail() {
        return JobBuilder.newJob(IdleGraduationCheck.class).withIdentity(IDLE).storeDurably().build();
    }

    @Bean
    Trigger idleTrigger(JobDetail idleJobDetail, CodeMemoryProperties properties) {
        return TriggerBuilder.newTrigger()
            .forJob(idleJobDetail)
            .withIdentity(IDLE)
            .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(properties.schedule().idleCheckEvery().toMillis())
                .repeatForever()
                .withMisfireHandlingInstructionNextWithRemainingCount())
            .build();
    }

    @Bean
    JobDetail nightlyJobDetail() {
        return JobBuilder.newJob(ScheduledBatchLaunch.class)
            .withIdentity(NIGHTLY)
            .usingJobData(ScheduledBatchLaunch.JOB_KEY, "graduate")
            .storeDurably()
            .build();
    }

    @Bean
    Trigger nightlyTrigger(JobDetail nightlyJobDetail, CodeMemoryProperties properties) {
        return TriggerBuilder.newTrigger()
            .forJob(nightlyJobDetail)
            .withIdentity(NIGHTLY)
            .withSchedule(CronScheduleBuilder.cronSchedule(properties.schedule().nightlyCron())
                .withMisfireHandlingInstructionDoNothing())
            .build();
    }

    /**
     * When the newest session ended, read on the connection serve holds (none open: not
     * known yet).
     */
    @Bean
    IdleGraduationCheck.LastSessionEnd lastSessionEnd(JobDatabase database) {
        return () -> {
            if (!database.isOpen()) {
                return null;
            }
            return database.read("read the last session end", SessionEndQueries::lastSessionEnd);
        };
    }

    /**
     * {@code --job=publish} on a fixed interval, scheduled by {@code serve} only when
     * this home publishes a project to a team store ({@code code-memory.team.*}).
     */
    public static JobDetail publishJobDetail() {
        return JobBuilder.newJob(ScheduledBatchLaunch.class)
            .withIdentity(PUBLISH)
            .usingJobData(ScheduledBatchLaunch.JOB_KEY, "publish")
            .storeDurably()
            .build();
    }

    public static Trigger publishTrigger(java.time.Duration every) {
        return TriggerBuilder.newTrigger()
            .withIdentity(PUBLISH)
            .startAt(java.util.Date.from(java.time.Instant.now().plus(every)))
            .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(every.toMillis())
                .repeatForever()
                .withMisfireHandlingInstructionNextWithRemainingCount())
            .build();
    }

    @Bean
    IdleTracker idleTracker(dev.codememory.config.home.CodeMemoryHome home) {
        return new IdleTracker(home.spool().resolve("current.jsonl"));
    }

}
