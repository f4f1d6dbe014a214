package dev.codememory.jobs.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdleTrackerTests {

    @TempDir
    Path dir;

    private final Instant t0 = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void noActivityEverIsNotIdleWork() {
        IdleTracker tracker = new IdleTracker(dir.resolve("current.jsonl"));

        assertThat(tracker.idleSinceActivity(t0, Duration.ofMinutes(30), null)).isFalse();
    }

    @Test
    void quietLongEnoughAfterActivityIsIdle() throws Exception {
        IdleTracker tracker = trackerWithActivityAt(t0);

        assertThat(tracker.idleSinceActivity(t0.plus(Duration.ofMinutes(29)), Duration.ofMinutes(30), null)).isFalse();
        assertThat(tracker.idleSinceActivity(t0.plus(Duration.ofMinutes(30)), Duration.ofMinutes(30), null)).isTrue();
    }

    @Test
    void activityAlreadyGraduatedIsNotIdleWork() throws Exception {
        IdleTracker tracker = trackerWithActivityAt(t0);

        assertThat(tracker.idleSinceActivity(t0.plus(Duration.ofHours(2)), Duration.ofMinutes(30),
                t0.plus(Duration.ofMinutes(40))))
            .isFalse();
    }

    @Test
    void remembersActivityAfterTheSpoolFileIsSealedAway() throws Exception {
        Path current = dir.resolve("current.jsonl");
        IdleTracker tracker = trackerWithActivityAt(t0);
        Files.delete(current); // ingest moved it into sealed/

        assertThat(tracker.observe()).isEqualTo(t0);
        assertThat(tracker.idleSinceActivity(t0.plus(Duration.ofMinutes(31)), Duration.ofMinutes(30),
                t0.minus(Duration.ofDays(1))))
            .isTrue();
    }

    private IdleTracker trackerWithActivityAt(Instant at) throws Exception {
        Path current = dir.resolve("current.jsonl");
        Files.writeString(current, "{}\n");
        Files.setLastModifiedTime(current, FileTime.from(at));
        IdleTracker tracker = new IdleTracker(current);
        tracker.observe();
        return tracker;
    }

}
