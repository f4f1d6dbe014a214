package dev.codememory.jobs.schedule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * When did the user last do something? Every hook appends to the spool's current file, so
 * its modification time is the last activity. Ingest moves that file away every minute,
 * so the tracker looks before each ingest and keeps the latest time it saw.
 */
public class IdleTracker {

    private final Path currentSpoolFile;

    private volatile Instant lastActivity;

    public IdleTracker(Path currentSpoolFile) {
        this.currentSpoolFile = currentSpoolFile;
    }

    public synchronized Instant observe() {
        try {
            Instant modified = Files.getLastModifiedTime(currentSpoolFile).toInstant();
            if (lastActivity == null || modified.isAfter(lastActivity)) {
                lastActivity = modified;
            }
        }
        catch (NoSuchFileException e) {
            // nothing appended since the last ingest
        }
        catch (IOException e) {
            // unreadable: keep what we knew
        }
        return lastActivity;
    }

    /**
     * True when there has been activity after the last graduation started and none for
     * {@code idleAfter}.
     */
    public boolean idleSinceActivity(Instant now, Duration idleAfter, Instant lastGraduationStart) {
        Instant last = observe();
        if (last == null) {
            return false;
        }
        boolean newSinceGraduation = lastGraduationStart == null || last.isAfter(lastGraduationStart);
        return newSinceGraduation && !last.plus(idleAfter).isAfter(now);
    }

}
