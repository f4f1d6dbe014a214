package dev.codememory.processors.embed;

import java.util.List;
import java.util.Objects;

/** Splits a list of texts into batches, runs each and puts the vectors back in order. */
final class Batches {

    /** One batch through a model; may throw whatever the engine throws. */
    @FunctionalInterface
    interface BatchEmbedding {
        float[][] embed(String[] batch) throws Exception;
    }

    private Batches() {
    }

    static float[][] embed(List<String> texts, int batchSize, String model, BatchEmbedding embedding) {
        Objects.requireNonNull(texts, "texts");
        for (int i = 0; i < texts.size(); i++) {
            Objects.requireNonNull(texts.get(i), () -> "texts contains null");
        }
        float[][] vectors = new float[texts.size()][];
        for (int from = 0; from < texts.size(); from += batchSize) {
            int to = Math.min(from + batchSize, texts.size());
            float[][] batch;
            try {
                batch = embedding.embed(texts.subList(from, to).toArray(String[]::new));
            } catch (EmbeddingException e) {
                throw e;
            } catch (Exception e) {
                throw new EmbeddingException(model + " failed on texts " + from + ".." + (to - 1) + " of "
                        + texts.size(), e);
            }
            System.arraycopy(batch, 0, vectors, from, batch.length);
        }
        return vectors;
    }

    static int requirePositive(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, was " + batchSize);
        }
        return batchSize;
    }
}
