package dev.codememory.retrieval.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;

import java.util.List;

/**
 * A tokenised batch as flat row-major {@code [size, length]} arrays, ready to become
 * INT64 tensors. Rows shorter than the longest are padded with id 0 and mask 0, so
 * pooling ignores the padding.
 */
record TokenBatch(int size, int length, long[] inputIds, long[] attentionMask, long[] tokenTypeIds) {

    static TokenBatch encode(HuggingFaceTokenizer tokenizer, List<String> texts) {
        Encoding[] encodings = tokenizer.batchEncode(texts);
        int length = 0;
        for (Encoding encoding : encodings) {
            length = Math.max(length, encoding.getIds().length);
        }
        int size = encodings.length;
        long[] ids = new long[size * length];
        long[] mask = new long[size * length];
        long[] types = new long[size * length];
        for (int row = 0; row < size; row++) {
            Encoding encoding = encodings[row];
            int offset = row * length;
            System.arraycopy(encoding.getIds(), 0, ids, offset, encoding.getIds().length);
            System.arraycopy(encoding.getAttentionMask(), 0, mask, offset, encoding.getAttentionMask().length);
            System.arraycopy(encoding.getTypeIds(), 0, types, offset, encoding.getTypeIds().length);
        }
        return new TokenBatch(size, length, ids, mask, types);
    }

    long[] shape() {
        return new long[] { size, length };
    }
}
