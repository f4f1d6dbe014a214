package dev.codememory.jobs.vector;

import dev.codememory.config.vector.VectorWork;
import dev.codememory.jobs.runtime.ConsoleProgress;
import java.time.Duration;
import java.time.LocalDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.ItemWriteListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/**
 * Reports how far the embed step is: count done of pending, rate, time left, and how far
 * back the memories with vectors now reach (the step embeds the newest first) — to the
 * log at most every two seconds, and to the command's console progress after every chunk.
 */
public class EmbedProgressListener implements StepExecutionListener, ItemWriteListener<Object> {

    private static final Logger log = LoggerFactory.getLogger(EmbedProgressListener.class);

    private static final long EVERY_NANOS = Duration.ofSeconds(2).toNanos();

    private final java.util.function.LongSupplier pending;

    private final ConsoleProgress console;

    private long total;

    private long done;

    private long started;

    private long lastPrint;

    /** The oldest memory embedded so far in this step, null before the first. */
    private LocalDateTime reachedBack;

    /**
     * @param pending how many outbox items are waiting when the step starts
     */
    public EmbedProgressListener(java.util.function.LongSupplier pending, ConsoleProgress console) {
        this.pending = pending;
        this.console = console;
    }

    @Override
    public void beforeStep(StepExecution stepExecution) {
        total = pending.getAsLong();
        done = 0;
        started = System.nanoTime();
        lastPrint = started;
        reachedBack = null;
        log.info("embedding {} memories", total);
    }

    @Override
    public void afterWrite(Chunk<?> items) {
        done += items.size();
        for (Object item : items) {
            if (item instanceof VectorWork work && work.op() == VectorWork.Op.UPSERT
                    && (reachedBack == null || work.ts().isBefore(reachedBack))) {
                reachedBack = work.ts();
            }
        }
        long now = System.nanoTime();
        String line = line(done, total, now - started, reachedBack);
        console.detail(line);
        if (now - lastPrint >= EVERY_NANOS || done >= total) {
            lastPrint = now;
            log.info(line);
        }
    }

    @Override
    public ExitStatus afterStep(StepExecution stepExecution) {
        String line = line(done, total, System.nanoTime() - started, reachedBack);
        log.info(line);
        console.detail(line);
        return stepExecution.getExitStatus();
    }

    /**
     * @param reachedBack the oldest memory embedded so far, or null
     */
    static String line(long done, long total, long elapsedNanos, LocalDateTime reachedBack) {
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        long left = rate > 0 ? Math.round(Math.max(0, total - done) / rate) : -1;
        return String.format("embedded %d of %d (%.1f/s), %s left%s", done, total, rate,
                left < 0 ? "unknown time" : Duration.ofSeconds(left).toString().substring(2).toLowerCase(),
                reachedBack == null || done >= total ? ""
                        : ", memories since " + reachedBack.toLocalDate() + " have vectors");
    }

}
