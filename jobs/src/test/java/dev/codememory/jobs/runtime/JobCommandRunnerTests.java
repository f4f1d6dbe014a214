package dev.codememory.jobs.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.vector.VectorStoreException;
import org.junit.jupiter.api.Test;
import org.springframework.batch.core.step.FatalStepExecutionException;

class JobCommandRunnerTests {

    @Test
    void aFailureIsReportedByItsCausePastSpringBatchsWrappers() {
        VectorStoreException cause = new VectorStoreException(
                "milvus vector store: cannot upsert into code_memory_v: DEADLINE_EXCEEDED", null);

        assertThat(JobCommandRunner.reason(new FatalStepExecutionException("Unable to process chunk", cause)))
            .isEqualTo(
                    "VectorStoreException: milvus vector store: cannot upsert into code_memory_v: DEADLINE_EXCEEDED");
        assertThat(JobCommandRunner.reason(cause)).isEqualTo(
                "VectorStoreException: milvus vector store: cannot upsert into code_memory_v: DEADLINE_EXCEEDED");
        assertThat(JobCommandRunner.reason(new FatalStepExecutionException("Unable to process chunk", null)))
            .isEqualTo("FatalStepExecutionException: Unable to process chunk");
    }

}
