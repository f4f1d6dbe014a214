package dev.codememory.capture.privacy.secrets;

import java.util.Arrays;

/**
 * Half-open spans of a text to mask, added by the rules in any order; overlapping and
 * touching spans are merged, and each merged span becomes one
 * {@link SecretRules#SECRET_MARKER}.
 */
final class Spans {

    private int[] starts = new int[8];

    private int[] ends = new int[8];

    private int size;

    void add(int start, int end) {
        if (end <= start) {
            return;
        }
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = start;
        ends[size] = end;
        size++;
    }

    String apply(String text) {
        if (size == 0) {
            return text;
        }
        long[] packed = new long[size];
        for (int k = 0; k < size; k++) {
            packed[k] = ((long) starts[k] << 32) | ends[k];
        }
        Arrays.sort(packed);
        StringBuilder out = new StringBuilder(text.length());
        int emitted = 0;
        int k = 0;
        while (k < size) {
            int start = (int) (packed[k] >>> 32);
            int end = (int) packed[k];
            k++;
            while (k < size && (int) (packed[k] >>> 32) <= end) {
                end = Math.max(end, (int) packed[k]);
                k++;
            }
            if (start < emitted) {
                start = emitted;
            }
            out.append(text, emitted, start).append(SecretRules.SECRET_MARKER);
            emitted = end;
        }
        return out.append(text, emitted, text.length()).toString();
    }

}
