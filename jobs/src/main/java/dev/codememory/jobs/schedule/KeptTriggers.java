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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a schedule kept in a database ({@code code-memory.schedule.store=jdbc}) up to
 * this start's settings, and leaves alone every trigger that already matches them: its
 * clock, and its state while another serve of the cluster runs its job. Replacing every
 * trigger at every start, as Spring's registration does when told to overwrite, let a
 * second serve's start fire the ingest beside the run under way on the first (seen in CI
 * and here: two runs at once at start-up, one of them refused by Spring Batch).
 * <p>
 * The job details are written at every start: that touches no trigger, and a job whose
 * class moved is written anew rather than read back.
 */
public final class KeptTriggers {

    private static final Logger log = LoggerFactory.getLogger(KeptTriggers.class);

    private KeptTriggers() {
    }

    /**
     * Writes {@code jobs}, adds the {@code triggers} not kept yet, reschedules the kept
     * ones whose schedule differs, and puts a matching one Quartz left in its ERROR state
     * back to waiting; returns the keys of the triggers rescheduled.
     */
    public static List<TriggerKey> keep(Scheduler scheduler, Collection<? extends JobDetail> jobs,
            Collection<? extends Trigger> triggers) throws SchedulerException {
        for (JobDetail job : jobs) {
            scheduler.addJob(job, true);
        }
        List<TriggerKey> changed = new ArrayList<>();
        for (Trigger trigger : triggers) {
            TriggerKey key = trigger.getKey();
            Trigger kept = scheduler.getTrigger(key);
            if (kept == null) {
                try {
                    scheduler.scheduleJob(trigger);
                    continue;
                }
                catch (ObjectAlreadyExistsException e) {
                    // another serve of the cluster added it meanwhile: compare with
                    // theirs
                    kept = scheduler.getTrigger(key);
                }
            }
            if (!sameSchedule(kept, trigger)) {
                if (kept.getJobKey().equals(trigger.getJobKey())) {
                    scheduler.rescheduleJob(key, trigger);
                }
                else {
                    // rescheduling keeps the old job: move it by hand
                    scheduler.unscheduleJob(key);
                    scheduler.scheduleJob(trigger);
                }
                changed.add(key);
            }
            else if (scheduler.getTriggerState(key) == Trigger.TriggerState.ERROR) {
                log.warn("the kept trigger {} was in Quartz's ERROR state (its job could not run); waiting again", key);
                scheduler.resetTriggerFromErrorState(key);
            }
        }
        return changed;
    }

    /**
     * Keeps one job and its trigger (serve's publish trigger, built without naming its
     * job); returns whether the trigger was rescheduled.
     */
    public static boolean keep(Scheduler scheduler, JobDetail job, Trigger trigger) throws SchedulerException {
        return !keep(scheduler, List.of(job), List.of(trigger.getTriggerBuilder().forJob(job).build())).isEmpty();
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
