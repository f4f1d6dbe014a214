package dev.codememory.jobs.vector;

import dev.codememory.jobs.runtime.ConsoleProgress;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.listener.ItemWriteListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

/**
 * Reports how far the embed step is: count done of pending, rate, and time left — to the log at most every two
 * seconds, and to the command's console progress after every chunk.
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

    /** @param pending how many outbox items are waiting when the step starts */
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
        log.info("embedding {} memories", total);
    }

    @Override
    public void afterWrite(Chunk<?> items) {
        done += items.size();
        long now = System.nanoTime();
        console.detail(line(done, total, now - started));
        if (now - lastPrint >= EVERY_NANOS || done >= total) {
            lastPrint = now;
            log.info(line(done, total, now - started));
        }
    }

    @Override
    public ExitStatus afterStep(StepExecution stepExecution) {
        String line = line(done, total, System.nanoTime() - started);
        log.info(line);
        console.detail(line);
        return stepExecution.getExitStatus();
    }

    static String line(long done, long total, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        long left = rate > 0 ? Math.round(Math.max(0, total - done) / rate) : -1;
        return String.format("embedded %d of %d (%.1f/s), %s left", done, total, rate,
                left < 0 ? "unknown time" : Duration.ofSeconds(left).toString().substring(2).toLowerCase());
    }
}
