package dev.codememory.jobs.hook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When this process started, to within a clock tick: the moment Claude Code's wait for
 * the hook began, JVM start-up included.
 *
 * <p>
 * {@code ProcessHandle.info().startInstant()} is not that on Linux: it adds the process's
 * start (in clock ticks since boot) to the boot time of {@code /proc/stat}'s
 * {@code btime}, which is whole seconds, so it is early by the boot time's lost fraction
 * — anything up to a second, the same for every process of one boot (420 ms on the
 * machine it was found on), and the hook's time budget shrank by that much. Here both
 * halves come from the same clock: {@code /proc/uptime} (seconds since boot, to 10 ms)
 * read now, less the process's start in ticks since boot ({@code /proc/self/stat}, field
 * 22), gives how long ago the process started; the error is at most a tick each way.
 * Elsewhere (macOS reports the start to the microsecond) the process handle's answer is
 * used. JDK-only and two small file reads: the hook calls it on every prompt.
 */
final class ProcessStart {

    /**
     * Clock ticks per second of {@code /proc/*\/stat} ({@code USER_HZ}): 100 on every
     * Linux architecture Java runs on.
     */
    static final long TICKS_PER_SECOND = 100;

    private ProcessStart() {
    }

    /** This process's start; now when nothing better is known. */
    static Instant started() {
        Optional<Instant> fromProc = fromProc(Path.of("/proc/self/stat"), Path.of("/proc/uptime"));
        return fromProc.orElseGet(() -> ProcessHandle.current().info().startInstant().orElse(Instant.now()));
    }

    /**
     * From the two files, the clock read right after {@code uptime}, so that the age and
     * the moment it is taken from agree.
     */
    static Optional<Instant> fromProc(Path stat, Path uptime) {
        try {
            String statText = Files.readString(stat, StandardCharsets.US_ASCII);
            String uptimeText = Files.readString(uptime, StandardCharsets.US_ASCII);
            return fromProc(statText, uptimeText, Instant.now());
        }
        catch (IOException | RuntimeException e) {
            return Optional.empty(); // not Linux, or /proc not mounted
        }
    }

    /**
     * The start from the text of {@code /proc/self/stat} and {@code /proc/uptime} read at
     * {@code now}.
     */
    static Optional<Instant> fromProc(String stat, String uptime, Instant now) {
        // the command name (field 2) is in parentheses and may hold spaces and ')'
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return Optional.empty();
        }
        String[] after = stat.substring(close + 1).trim().split("\\s+");
        // after the name: state is field 3, so field 22 (starttime) is index 19
        if (after.length < 20) {
            return Optional.empty();
        }
        long startTicks = Long.parseLong(after[19]);
        String up = uptime.trim().split("\\s+")[0];
        int dot = up.indexOf('.');
        long upMillis = (dot < 0) ? Long.parseLong(up) * 1000 : Long.parseLong(up.substring(0, dot)) * 1000
                + Long.parseLong((up.substring(dot + 1) + "000").substring(0, 3));
        long ageMillis = upMillis - startTicks * 1000 / TICKS_PER_SECOND;
        if (ageMillis < 0) {
            return Optional.of(now);
        }
        return Optional.of(now.minus(Duration.ofMillis(ageMillis)));
    }

}
