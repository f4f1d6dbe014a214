package dev.codememory.jobs.schedule;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.quartz.CronTrigger;
import org.quartz.JobDetail;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerKey;

/**
 * Brings a schedule kept in a database ({@code code-memory.schedule.store=jdbc}) up to
 * this start's settings, and leaves alone every trigger that already matches them.
 * Replacing a matching trigger would restart its clock and lift the block Quartz keeps on
 * a job while one serve of the cluster runs it: a second serve starting (or a command
 * starting the application) would fire the ingest anew beside the run under way.
 */
public final class KeptTriggers {

    private KeptTriggers() {
    }

    /**
     * Reschedules the kept triggers whose schedule differs from {@code wanted}; returns
     * their keys. Triggers not kept yet are left to the scheduler's own registration.
     */
    public static List<TriggerKey> rescheduleChanged(Scheduler scheduler, Collection<? extends Trigger> wanted)
            throws SchedulerException {
        List<TriggerKey> changed = new ArrayList<>();
        for (Trigger trigger : wanted) {
            Trigger kept = scheduler.getTrigger(trigger.getKey());
            if (kept != null && !sameSchedule(kept, trigger)) {
                scheduler.rescheduleJob(trigger.getKey(), trigger);
                changed.add(trigger.getKey());
            }
        }
        return changed;
    }

    /**
     * Schedules {@code job} with {@code trigger} when the job is not kept yet,
     * reschedules a kept trigger whose schedule changed, and leaves a matching one as it
     * is. Returns whether anything was written.
     */
    public static boolean schedule(Scheduler scheduler, JobDetail job, Trigger trigger) throws SchedulerException {
        Trigger forJob = trigger.getTriggerBuilder().forJob(job).build();
        if (scheduler.getTrigger(forJob.getKey()) == null) {
            try {
                if (scheduler.checkExists(job.getKey())) {
                    scheduler.scheduleJob(forJob);
                }
                else {
                    scheduler.scheduleJob(job, forJob);
                }
                return true;
            }
            catch (ObjectAlreadyExistsException e) {
                // another serve of the cluster wrote it meanwhile: compare with theirs
            }
        }
        return !rescheduleChanged(scheduler, List.of(forJob)).isEmpty();
    }

    /**
     * Whether two triggers fire the same job at the same times and treat a misfire alike.
     */
    static boolean sameSchedule(Trigger kept, Trigger wanted) {
        if (!kept.getJobKey().equals(wanted.getJobKey())
                || kept.getMisfireInstruction() != wanted.getMisfireInstruction()) {
            return false;
        }
        if (kept instanceof SimpleTrigger k && wanted instanceof SimpleTrigger w) {
            return k.getRepeatInterval() == w.getRepeatInterval() && k.getRepeatCount() == w.getRepeatCount();
        }
        if (kept instanceof CronTrigger k && wanted instanceof CronTrigger w) {
            return k.getCronExpression().equals(w.getCronExpression())
                    && k.getTimeZone().getID().equals(w.getTimeZone().getID());
        }
        return false;
    }

}
