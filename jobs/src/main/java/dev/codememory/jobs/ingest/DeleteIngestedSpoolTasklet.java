package dev.codememory.jobs.ingest;

import dev.codememory.capture.spool.Spool;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.scope.context.ChunkContext;
import org.springframework.batch.core.step.StepContribution;
import org.springframework.batch.core.step.tasklet.Tasklet;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Deletes the sealed spool files the ingest step read, once its rows are committed: only
 * files up to the last one the reader took (promoted into the job's context), so files
 * sealed since wait for the next run.
 */
class DeleteIngestedSpoolTasklet implements Tasklet {

    private static final Logger log = LoggerFactory.getLogger(DeleteIngestedSpoolTasklet.class);

    private final Spool spool;

    private final String lastFileKey;

    DeleteIngestedSpoolTasklet(Spool spool, String lastFileKey) {
        this.spool = spool;
        this.lastFileKey = lastFileKey;
    }

    @Override
    public RepeatStatus execute(StepContribution contribution, ChunkContext chunkContext) throws Exception {
        ExecutionContext jobContext = chunkContext.getStepContext()
            .getStepExecution()
            .getJobExecution()
            .getExecutionContext();
        if (!jobContext.containsKey(lastFileKey)) {
            return RepeatStatus.FINISHED;
        }
        String lastFile = jobContext.getString(lastFileKey);
        int deleted = 0;
        for (Path file : spool.sealedFiles()) {
            if (file.getFileName().toString().compareTo(lastFile) <= 0) {
                Files.deleteIfExists(file);
                deleted++;
            }
        }
        contribution.incrementWriteCount(deleted);
        log.info("deleted {} ingested spool file(s)", deleted);
        return RepeatStatus.FINISHED;
    }

}
