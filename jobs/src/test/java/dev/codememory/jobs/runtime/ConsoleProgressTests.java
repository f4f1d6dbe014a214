package dev.codememory.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.step.StepExecution;

class ConsoleProgressTests {

    @Test
    void aStageIsOneLineInPlainWords() {
        StepExecution step = step("extractCandidatesStep");
        step.setReadCount(1234);
        step.setWriteCount(40);
        step.setReadSkipCount(2);

        assertThat(ConsoleProgress.line(step, 1_240_000_000L, null))
            .isEqualTo("  extract candidates     read 1,234 · wrote 40 · skipped 2 · 1.2 s");
        assertThat(ConsoleProgress.line(step("sealSpoolStep"), 30_000_000L, null))
            .isEqualTo("  seal spool             nothing to do · 0.0 s");
        StepExecution failed = step("embedMemoriesStep");
        failed.setStatus(BatchStatus.FAILED);
        assertThat(ConsoleProgress.line(failed, 125_000_000_000L, "embedded 3 of 9 (1.0/s), 6s left"))
            .isEqualTo("  embed memories         embedded 3 of 9 (1.0/s), 6s left · 2 min 05 s  FAILED");
    }

    @Test
    void showsNothingUnlessACommandAttachedAndThenOneLinePerStage() {
        ConsoleProgress progress = new ConsoleProgress();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StepExecution step = step("ingestSpoolStep");

        progress.stepStarted(step);
        progress.stepFinished(step);
        progress.attach(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        progress.stepStarted(step);
        step.setReadCount(3);
        step.setWriteCount(3);
        progress.stepFinished(step);
        progress.detach();
        progress.stepStarted(step);
        progress.stepFinished(step);

        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .matches("  ingest spool           read 3 · wrote 3 · " + "\\d+\\.\\d s\\R");
    }

    private static StepExecution step(String name) {
        JobExecution job = new JobExecution(1L, new JobInstance(1L, "graduationJob"), new JobParameters());
        return new StepExecution(1L, name, job);
    }

}
