package dev.codememory.jobs.serve;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Graduation soon after an MCP {@code mem-save} answered by serve
 * ({@code code-memory.schedule.after-save}, a minute by default): what the user asked to
 * remember becomes searchable then, instead of after the idle period that keeps
 * graduation out of a working session's way. Saves while one is due share it. Off when
 * serve's schedule is off or the delay is zero.
 */
public final class SaveGraduation implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SaveGraduation.class);

    private final JobRunner jobRunner;

    private final Duration delay;

    private final boolean enabled;

    private final AtomicBoolean due = new AtomicBoolean();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "graduate-after-save");
        t.setDaemon(true);
        return t;
    });

    public SaveGraduation(JobRunner jobRunner, Duration delay, boolean enabled) {
        this.jobRunner = jobRunner;
        this.delay = delay;
        this.enabled = enabled && !delay.isZero();
    }

    /**
     * A save was spooled: graduation in {@link #delay()}, unless one is due already.
     * Returns the delay, or null when serve will not graduate for it.
     */
    public Duration saved() {
        if (!enabled) {
            return null;
        }
        if (due.compareAndSet(false, true)) {
            timer.schedule(this::graduate, delay.toMillis(), TimeUnit.MILLISECONDS);
        }
        return delay;
    }

    private void graduate() {
        due.set(false);
        try {
            var execution = jobRunner.run("graduate");
            log.info("graduation after mem-save ended {}", execution.getStatus());
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            log.info("graduation after mem-save skipped: {}", e.getMessage());
        }
        catch (RuntimeException e) {
            log.error("graduation after mem-save failed to run", e);
        }
    }

    Duration delay() {
        return delay;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

}
