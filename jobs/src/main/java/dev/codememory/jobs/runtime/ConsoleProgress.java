package dev.codememory.jobs.runtime;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.batch.core.step.StepExecution;

/**
 * What a job run from the command line shows while it works: one line per stage in plain
 * words (what it read and wrote, how long it took), and on a terminal a line that keeps
 * updating while the stage runs. Nothing is shown unless a command {@linkplain #attach
 * attached} an output: jobs that {@code serve} runs report to the log only.
 */
public class ConsoleProgress {

    private static final long TICK_MS = 250;

    private volatile PrintStream out;

    private volatile boolean live;

    private volatile StepExecution current;

    private volatile String detail;

    private volatile long stepStarted;

    private ScheduledExecutorService ticker;

    private ScheduledFuture<?> tick;

    /**
     * Shows progress on {@code out} until {@link #detach}; {@code terminal}: update a
     * live line in place.
     */
    public synchronized void attach(PrintStream out, boolean terminal) {
        this.out = out;
        this.live = terminal;
    }

    public synchronized void detach() {
        stopTicking();
        if (ticker != null) {
            ticker.shutdownNow();
            ticker = null;
        }
        out = null;
    }

    /** Whether stdout is a terminal a live line can be redrawn on. */
    public static boolean isTerminal() {
        return System.console() != null && !"dumb".equals(System.getenv("TERM"));
    }

    synchronized void stepStarted(StepExecution step) {
        if (out == null) {
            return;
        }
        current = step;
        detail = null;
        stepStarted = System.nanoTime();
        if (live) {
            if (ticker == null) {
                ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "console-progress");
                    t.setDaemon(true);
                    return t;
                });
            }
            tick = ticker.scheduleAtFixedRate(this::redraw, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A stage's own account of how far it is (e.g. "embedded 120 of 400 (35.2/s), 8s
     * left"), shown in its line.
     */
    public void detail(String line) {
        detail = line;
    }

    synchronized void stepFinished(StepExecution step) {
        if (out == null) {
            return;
        }
        stopTicking();
        if (live) {
            out.print("\r\033[2K");
        }
        out.println(line(step, System.nanoTime() - stepStarted, detail));
        out.flush();
        current = null;
        detail = null;
    }

    private synchronized void redraw() {
        StepExecution step = current;
        PrintStream o = out;
        if (step == null || o == null) {
            return;
        }
        o.print("\r\033[2K" + line(step, System.nanoTime() - stepStarted, detail) + " …");
        o.flush();
    }

    private void stopTicking() {
        if (tick != null) {
            tick.cancel(false);
            tick = null;
        }
    }

    /** " extract candidates read 12 · wrote 40 · 1.2 s" */
    static String line(StepExecution step, long nanos, String detail) {
        StringBuilder counts = new StringBuilder();
        if (detail != null) {
            counts.append(detail);
        }
        else if (step.getReadCount() == 0 && step.getWriteCount() == 0 && step.getSkipCount() == 0) {
            counts.append("nothing to do");
        }
        else {
            if (step.getReadCount() > 0) {
                counts.append("read ").append(number(step.getReadCount()));
            }
            if (step.getWriteCount() > 0 || step.getReadCount() > 0) {
                counts.append(counts.isEmpty() ? "" : " · ").append("wrote ").append(number(step.getWriteCount()));
            }
            if (step.getFilterCount() > 0) {
                counts.append(" · filtered ").append(number(step.getFilterCount()));
            }
            if (step.getSkipCount() > 0) {
                counts.append(" · skipped ").append(number(step.getSkipCount()));
            }
        }
        String status = step.getStatus().isUnsuccessful() ? "  " + step.getStatus() : "";
        return String.format(Locale.ROOT, "  %-22s %s · %s%s", words(step.getStepName()), counts, seconds(nanos),
                status);
    }

    /** {@code extractCandidatesStep} → "extract candidates". */
    public static String words(String stepName) {
        String name = stepName.endsWith("Step") ? stepName.substring(0, stepName.length() - 4) : stepName;
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c) && i > 0) {
                words.append(' ');
            }
            words.append(Character.toLowerCase(c));
        }
        return words.toString();
    }

    public static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static String seconds(long nanos) {
        double s = nanos / 1e9;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1f s", s);
        }
        Duration d = Duration.ofSeconds(Math.round(s));
        return d.toHours() > 0 ? String.format(Locale.ROOT, "%d h %02d min", d.toHours(), d.toMinutesPart())
                : String.format(Locale.ROOT, "%d min %02d s", d.toMinutes(), d.toSecondsPart());
    }

}
