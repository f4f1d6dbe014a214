package dev.codememory.retrieval.embed;

import java.util.Arrays;

/**
 * Sentence-transformers' mean pooling: the average of the token vectors the attention
 * mask keeps, then L2 normalisation. Done in plain Java on the model's
 * {@code last_hidden_state}, so it needs no NDArray engine.
 */
final class MeanPooling {

    private MeanPooling() {
    }

    /**
     * @param hidden {@code last_hidden_state}, row-major
     * {@code [batch.size(), batch.length(), dimension]}
     * @return one unit-length vector per row of the batch
     */
    static float[][] pool(float[] hidden, TokenBatch batch, int dimension) {
        if (hidden.length != batch.size() * batch.length() * dimension) {
            throw new EmbeddingException("model output has " + hidden.length + " values, expected " + batch.size()
                    + " x " + batch.length() + " x " + dimension);
        }
        float[][] vectors = new float[batch.size()][];
        double[] sum = new double[dimension];
        for (int row = 0; row < batch.size(); row++) {
            Arrays.fill(sum, 0.0);
            int kept = 0;
            for (int token = 0; token < batch.length(); token++) {
                int index = row * batch.length() + token;
                if (batch.attentionMask()[index] == 0) {
                    continue;
                }
                kept++;
                int base = index * dimension;
                for (int d = 0; d < dimension; d++) {
                    sum[d] += hidden[base + d];
                }
            }
            vectors[row] = normalise(sum, Math.max(kept, 1));
        }
        return vectors;
    }

    private static float[] normalise(double[] sum, int count) {
        double norm = 0.0;
        for (double value : sum) {
            double mean = value / count;
            norm += mean * mean;
        }
        norm = Math.max(Math.sqrt(norm), 1e-12);
        float[] vector = new float[sum.length];
        for (int d = 0; d < sum.length; d++) {
            vector[d] = (float) (sum[d] / count / norm);
        }
        return vector;
    }

}
