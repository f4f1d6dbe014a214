package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.StdSchedulerFactory;

/**
 * A real Quartz scheduler (in memory, never started) holds the kept schedule.
 */
class KeptTriggersTests {

    private static final Date FIRST_START = new Date(1_700_000_000_000L);

    private Scheduler scheduler;

    private final JobDetail ingest = JobBuilder.newJob(Noop.class).withIdentity("ingest").storeDurably().build();

    @BeforeEach
    void createScheduler() throws Exception {
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", "kept-" + UUID.randomUUID());
        p.setProperty("org.quartz.threadPool.threadCount", "1");
        p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        scheduler = new StdSchedulerFactory(p).getScheduler();
        scheduler.addJob(ingest, true);
        scheduler.scheduleJob(every(2_000, FIRST_START));
    }

    @AfterEach
    void shutDown() throws Exception {
        scheduler.shutdown();
    }

    @Test
    void aKeptTriggerThatMatchesTheSettingsKeepsItsClock() throws Exception {
        List<TriggerKey> changed = KeptTriggers.keep(scheduler, List.of(ingest), List.of(every(2_000, new Date())));

        assertThat(changed).isEmpty();
        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("ingest")).getStartTime()).isEqualTo(FIRST_START);
    }

    @Test
    void aChangedIntervalIsRescheduled() throws Exception {
        Date now = new Date();

        List<TriggerKey> changed = KeptTriggers.keep(scheduler, List.of(ingest), List.of(every(5_000, now)));

        assertThat(changed).containsExactly(TriggerKey.triggerKey("ingest"));
        SimpleTrigger kept = (SimpleTrigger) scheduler.getTrigger(TriggerKey.triggerKey("ingest"));
        assertThat(kept.getRepeatInterval()).isEqualTo(5_000);
        assertThat(kept.getStartTime()).isEqualTo(now);
    }

    @Test
    void aMissingTriggerIsAddedAndAJobWrittenAnew() throws Exception {
        JobDetail moved = JobBuilder.newJob(Other.class).withIdentity("ingest").storeDurably().build();
        Trigger other = TriggerBuilder.newTrigger()
            .withIdentity("other")
            .forJob(ingest)
            .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(3))
            .build();

        assertThat(KeptTriggers.keep(scheduler, List.of(moved), List.of(other))).isEmpty();

        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("other")).getJobKey()).isEqualTo(ingest.getKey());
        assertThat(scheduler.getJobDetail(ingest.getKey()).getJobClass()).isEqualTo(Other.class);
        // writing the job touched none of its triggers
        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("ingest")).getStartTime()).isEqualTo(FIRST_START);
    }

    @Test
    void aTriggerMovedToAnotherJobIsMoved() throws Exception {
        JobDetail graduate = JobBuilder.newJob(Noop.class).withIdentity("graduate").storeDurably().build();
        Trigger moved = simple("ingest", 2_000, FIRST_START).forJob(graduate).build();

        assertThat(KeptTriggers.keep(scheduler, List.of(graduate), List.of(moved)))
            .containsExactly(TriggerKey.triggerKey("ingest"));
        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("ingest")).getJobKey()).isEqualTo(graduate.getKey());
    }

    @Test
    void aMatchingTriggerQuartzLeftInErrorWaitsAgain() throws Exception {
        // Quartz puts a trigger in ERROR when its job cannot be run; no public call does,
        // so a stand-in scheduler reports it
        Trigger kept = every(2_000, FIRST_START);
        Scheduler errored = mock(Scheduler.class);
        when(errored.getTrigger(kept.getKey())).thenReturn(kept);
        when(errored.getTriggerState(kept.getKey())).thenReturn(Trigger.TriggerState.ERROR);

        assertThat(KeptTriggers.keep(errored, List.of(), List.of(every(2_000, new Date())))).isEmpty();

        verify(errored).resetTriggerFromErrorState(kept.getKey());
        verify(errored, never()).rescheduleJob(any(), any());
    }

    @Test
    void serveSPublishTriggerIsWrittenOnlyWhenMissingOrChanged() throws Exception {
        JobDetail publish = JobBuilder.newJob(Noop.class).withIdentity("publish").storeDurably().build();

        assertThat(KeptTriggers.keep(scheduler, publish, unbound(60_000, FIRST_START))).isFalse();
        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("publish")).getStartTime()).isEqualTo(FIRST_START);
        assertThat(KeptTriggers.keep(scheduler, publish, unbound(60_000, new Date()))).isFalse();
        assertThat(scheduler.getTrigger(TriggerKey.triggerKey("publish")).getStartTime()).isEqualTo(FIRST_START);
        assertThat(KeptTriggers.keep(scheduler, publish, unbound(120_000, new Date()))).isTrue();
        assertThat(((SimpleTrigger) scheduler.getTrigger(TriggerKey.triggerKey("publish"))).getRepeatInterval())
            .isEqualTo(120_000);
        assertThat(scheduler.getTriggersOfJob(publish.getKey())).hasSize(1);
    }

    @Test
    void cronTriggersCompareTheirExpressionAndTimeZone() {
        Trigger at3 = cron("0 0 3 * * ?", "UTC");

        assertThat(KeptTriggers.sameSchedule(at3, cron("0 0 3 * * ?", "UTC"))).isTrue();
        assertThat(KeptTriggers.sameSchedule(at3, cron("0 0 4 * * ?", "UTC"))).isFalse();
        assertThat(KeptTriggers.sameSchedule(at3, cron("0 0 3 * * ?", "Europe/Berlin"))).isFalse();
        assertThat(KeptTriggers.sameSchedule(at3, every(2_000, FIRST_START))).isFalse();
    }

    private Trigger every(long millis, Date start) {
        return simple("ingest", millis, start).forJob(ingest).build();
    }

    /** As serve builds its publish trigger: without naming the job. */
    private Trigger unbound(long millis, Date start) {
        return simple("publish", millis, start).build();
    }

    private static TriggerBuilder<SimpleTrigger> simple(String name, long millis, Date start) {
        return TriggerBuilder.newTrigger()
            .withIdentity(name)
            .startAt(start)
            .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(millis)
                .repeatForever()
                .withMisfireHandlingInstructionNextWithRemainingCount());
    }

    private Trigger cron(String expression, String zone) {
        return TriggerBuilder.newTrigger()
            .withIdentity("nightly")
            .forJob(ingest)
            .withSchedule(CronScheduleBuilder.cronSchedule(expression)
                .inTimeZone(java.util.TimeZone.getTimeZone(zone))
                .withMisfireHandlingInstructionDoNothing())
            .build();
    }

    /** A job that is never run: the scheduler is not started. */
    public static class Noop implements Job {

        @Override
        public void execute(JobExecutionContext context) {
        }

    }

    /** The class a job moved to. */
    public static class Other extends Noop {

    }

}
