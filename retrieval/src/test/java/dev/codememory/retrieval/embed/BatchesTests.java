package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchesTests {

    @Test
    void batchesHoldTextsOfSimilarLengthAndVectorsComeBackInTheCallersOrder() {
        List<String> texts = List.of("a reply of many words here", "ok", "a medium text", "hi",
                "another long reply text", "mid text");
        List<List<String>> batches = new ArrayList<>();
        float[][] vectors = Batches.embed(texts, 2, "test", batch -> {
            batches.add(List.of(batch));
            float[][] out = new float[batch.length][];
            for (int i = 0; i < batch.length; i++) {
                out[i] = new float[] { batch[i].length() };
            }
            return out;
        });

        assertThat(batches).containsExactly(List.of("ok", "hi"), List.of("mid text", "a medium text"),
                List.of("another long reply text", "a reply of many words here"));
        for (int i = 0; i < texts.size(); i++) {
            assertThat(vectors[i][0]).as(texts.get(i)).isEqualTo(texts.get(i).length());
        }
    }

    @Test
    void aFailingBatchSaysHowLargeItWas() {
        assertThatThrownBy(() -> Batches.embed(List.of("a", "b", "c"), 2, "test", batch -> {
            throw new IllegalStateException("engine down");
        })).isInstanceOf(EmbeddingException.class)
            .hasMessage("test failed on a batch of 2 of 3 texts")
            .hasRootCauseMessage("engine down");
    }

}
