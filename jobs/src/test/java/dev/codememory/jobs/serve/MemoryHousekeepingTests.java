package dev.codememory.jobs.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When serve gives back memory on its own: once warm, after an answer, when it has been
 * idle long enough and no job runs; once per answer. The clock is a counter.
 */
class MemoryHousekeepingTests {

    private static final long IDLE = MemoryHousekeeping.IDLE_BEFORE_COMPACTION.toNanos();

    private final AtomicLong now = new AtomicLong(1_000);

    private final AtomicBoolean warm = new AtomicBoolean(true);

    private final MemoryHousekeeping housekeeping = new MemoryHousekeeping(() -> null, warm::get, now::get);

    @Test
    void compactsOnceWhenIdleAfterAnAnswer() {
        housekeeping.answered();
        now.addAndGet(IDLE);
        assertThat(housekeeping.compactWhenIdle()).as("not idle long enough").isFalse();

        now.addAndGet(1);
        assertThat(housekeeping.compactWhenIdle()).isTrue();
        now.addAndGet(IDLE * 2);
        assertThat(housekeeping.compactWhenIdle()).as("nothing answered since").isFalse();
    }

    @Test
    void neverCompactsWithoutAnAnswer() {
        now.addAndGet(IDLE * 10);

        assertThat(housekeeping.compactWhenIdle()).isFalse();
    }

    @Test
    void waitsForWarmUpAndForARunningJob() {
        AtomicBoolean jobRunning = new AtomicBoolean(true);
        housekeeping.skipCompactionWhile(jobRunning::get);
        warm.set(false);
        housekeeping.answered();
        now.addAndGet(IDLE + 1);

        assertThat(housekeeping.compactWhenIdle()).as("not warm").isFalse();
        warm.set(true);
        assertThat(housekeeping.compactWhenIdle()).as("a job runs").isFalse();
        jobRunning.set(false);
        assertThat(housekeeping.compactWhenIdle()).isTrue();
    }

}
