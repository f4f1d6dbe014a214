package dev.codememory.jobs.vector;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.vector.VectorWork;
import dev.codememory.jobs.runtime.ConsoleProgress;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.Chunk;

class EmbedProgressListenerTests {

    @Test
    void theLineSaysHowFarBackTheMemoriesWithVectorsReachUntilAllAreDone() {
        LocalDateTime back = LocalDateTime.of(2026, 11, 10, 9, 30);

        assertThat(EmbedProgressListener.line(120, 400, 4_000_000_000L, back))
            .isEqualTo("embedded 120 of 400 (30.0/s), 9s left, memories since 2026-11-10 have vectors");
        assertThat(EmbedProgressListener.line(0, 400, 0, null))
            .isEqualTo("embedded 0 of 400 (0.0/s), unknown time left");
        assertThat(EmbedProgressListener.line(400, 400, 4_000_000_000L, back))
            .isEqualTo("embedded 400 of 400 (100.0/s), 0s left");
    }

    @Test
    void reachesBackToTheOldestMemoryWrittenSoFarIgnoringRemovals() {
        List<String> shown = new ArrayList<>();
        ConsoleProgress console = new ConsoleProgress() {
            @Override
            public void detail(String line) {
                shown.add(line);
            }
        };
        EmbedProgressListener listener = new EmbedProgressListener(() -> 5, console);
        listener.beforeStep(new StepExecution(1L, "embedMemoriesStep",
                new JobExecution(1L, new JobInstance(1L, "graduationJob"), new JobParameters())));

        listener
            .afterWrite(new Chunk<>(List.of(new VectorWork("gone", VectorWork.Op.DELETE, null, null, null, null, null),
                    upsert("a", LocalDateTime.of(2026, 11, 20, 8, 0)),
                    upsert("b", LocalDateTime.of(2026, 11, 18, 8, 0)))));
        listener.afterWrite(new Chunk<>(List.of(upsert("c", LocalDateTime.of(2026, 11, 2, 8, 0)))));

        assertThat(shown.get(0)).endsWith("memories since 2026-11-18 have vectors");
        assertThat(shown.get(1)).startsWith("embedded 4 of 5").endsWith("memories since 2026-11-02 have vectors");
    }

    private static VectorWork upsert(String id, LocalDateTime ts) {
        return new VectorWork(id, VectorWork.Op.UPSERT, "text " + id, "/p", "fact", "active", ts);
    }

}
