package dev.codememory.jobs.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

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
     * A child JVM's start, as it works it out, is no earlier than the moment before this
     * test started it (less a clock tick each way) and no later than its own main:
     * ProcessHandle's start on Linux was up to a second earlier (boot time in whole
     * seconds; 481 ms here).
     */
    @Test
    void aProcessStartsAfterItIsLaunchedAndBeforeItsMainRuns() throws Exception {
        assumeThat(Files.isReadable(Path.of("/proc/self/stat"))).as("Linux /proc").isTrue();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Instant before = Instant.now();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Child.class.getName())
            .redirectErrorStream(true)
            .start();
        String[] printed = new String(child.getInputStream().readAllBytes()).trim().split(" ");
        assertThat(child.waitFor()).isZero();

        Instant started = Instant.ofEpochMilli(Long.parseLong(printed[0]));
        Instant main = Instant.ofEpochMilli(Long.parseLong(printed[1]));
        assertThat(started).isAfterOrEqualTo(before.minusMillis(25)).isBeforeOrEqualTo(main);
    }

    /** Prints its start as {@link ProcessStart} has it, then the time in its main. */
    static final class Child {

        public static void main(String[] args) {
            long main = System.currentTimeMillis();
            System.out.println(ProcessStart.started().toEpochMilli() + " " + main);
        }

    }

}
