package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTests {

    @TempDir
    Path tmp;

    private static final String PROGRESS = " INFO 1 --- [code-memory] [main] d.c.jobs.vector.EmbedProgressListener    : ";

    @Test
    void theNewestWeeksHaveVectorsAtTheFirstProgressLineThatReachesBackToThem() throws IOException {
        Path log = tmp.resolve("jobs.log");
        Files.write(log, List.of(
                "2026-11-25T00:21:17.958Z  INFO 1 --- [code-memory] [main] d.c.jobs.runtime.JobRunListener : step x",
                "2026-11-25T00:25:21.331Z" + PROGRESS
                        + "embedded 128 of 180055 (53.9/s), 55m40s left, memories since 2028-10-26 have vectors",
                "2026-11-25T00:25:40.000Z" + PROGRESS
                        + "embedded 2176 of 180055 (98.0/s), 30m1s left, memories since 2028-10-13 have vectors",
                "2026-11-25T00:25:43.537Z" + PROGRESS
                        + "embedded 2432 of 180055 (98.9/s), 29m55s left, memories since 2028-10-12 have vectors",
                "2026-11-25T00:25:46.000Z" + PROGRESS
                        + "embedded 2688 of 180055 (99.1/s), 29m50s left, memories since 2028-10-11 have vectors"));

        Duration until = BenchCommand.untilVectorsReach(log, Instant.parse("2026-11-25T00:21:00Z"),
                LocalDate.parse("2028-10-12"));

        assertThat(until).isEqualTo(Duration.ofMillis(4 * 60_000 + 43_537));
    }

    @Test
    void withoutAProgressLineThatReachesBackThereIsNoAnswer() throws IOException {
        Path log = tmp.resolve("jobs.log");
        Files.write(log, List.of("2026-11-25T00:25:21.331Z" + PROGRESS
                + "embedded 128 of 180055 (53.9/s), 55m40s left, memories since 2028-10-26 have vectors"));

        assertThat(BenchCommand.untilVectorsReach(log, Instant.parse("2026-11-25T00:21:00Z"),
                LocalDate.parse("2028-10-12")))
            .isNull();
        assertThat(BenchCommand.untilVectorsReach(tmp.resolve("missing.log"), Instant.now(), LocalDate.now())).isNull();
    }

}
