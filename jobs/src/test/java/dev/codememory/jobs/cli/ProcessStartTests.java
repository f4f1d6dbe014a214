package dev.codememory.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProcessStartTests {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00.500Z");

    @Test
    void theStartIsHowLongAgoTheProcessStartedAfterBoot() {
        // started 2,000.00 s after boot, read at 2,071.37 s: 71.37 s ago
        String stat = "4242 (java) S 1 4242 4242 0 -1 4194304 1 0 0 0 0 0 0 0 20 0 1 0 200000 3133440 413 0";

        assertThat(ProcessStart.fromProc(stat, "2071.37 529.70\n", NOW)).hasValue(NOW.minus(Duration.ofMillis(71_370)));
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesIsSkippedWhole() {
        String stat = "7 (a) b (c d) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 150 0 0";

        assertThat(ProcessStart.fromProc(stat, "2.5 0.1", NOW)).hasValue(NOW.minus(Duration.ofMillis(1_000)));
    }

    @Test
    void unreadableTextGivesNothing() {
        assertThat(ProcessStart.fromProc("garbage", "1.0 1.0", NOW)).isEmpty();
        assertThat(ProcessStart.fromProc("1 (x) R 1 2", "1.0 1.0", NOW)).isEmpty();
    }

    /**
     * This JVM's start as the JVM recorded it (its own clock, to the millisecond, taken
     * as it began creating the VM, a little after the process started): ProcessHandle's
     * start on Linux was up to a second earlier than that (boot time in whole seconds).
     */
    @Test
    void thisProcessStartedJustBeforeItsJvmDid() {
        assumeThat(Files.isReadable(Path.of("/proc/self/stat"))).as("Linux /proc").isTrue();
        Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());

        Instant started = ProcessStart.started();

        assertThat(started).isBefore(jvmStart.plusMillis(25)).isAfter(jvmStart.minusMillis(300));
    }

}
