package dev.codememory.retrieval.embed;

import java.util.List;
import java.util.Objects;

/**
 * Splits a list of texts into batches of similar length, runs each and puts the vectors
 * back in the callers' order. A batch is padded to its longest text, so batches cut in
 * the given order, where a two-word title meets a reply of 256 tokens, spend most of the
 * model's work on padding; cut after sorting by length, they spend little.
 */
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
        Integer[] order = new Integer[texts.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> texts.get(i).length()));
        float[][] vectors = new float[texts.size()][];
        for (int from = 0; from < order.length; from += batchSize) {
            int to = Math.min(from + batchSize, order.length);
            String[] batch = new String[to - from];
            for (int k = from; k < to; k++) {
                batch[k - from] = texts.get(order[k]);
            }
            float[][] embedded;
            try {
                embedded = embedding.embed(batch);
            }
            catch (EmbeddingException e) {
                throw e;
            }
            catch (Exception e) {
                throw new EmbeddingException(
                        model + " failed on a batch of " + batch.length + " of " + texts.size() + " texts", e);
            }
            for (int k = from; k < to; k++) {
                vectors[order[k]] = embedded[k - from];
            }
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
