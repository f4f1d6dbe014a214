package dev.codememory.processors.align;

import java.util.Objects;

/**
 * Where a quote was found: {@code source.substring(start, end)} is the evidence, in the
 * source's own characters.
 *
 * <p>
 * Offsets are UTF-16 indexes into the source, {@code end} exclusive, and never fall
 * inside a surrogate pair. The span is never empty. Confidence bands:
 * {@link Method#EXACT} is exactly 1.0, every other method is below 1.0, and
 * {@link Method#FUZZY} stays below {@link EvidenceAligner#WHITESPACE_CONFIDENCE}.
 */
public record Alignment(int start, int end, double confidence, Method method) {

    public Alignment {
        Objects.requireNonNull(method, "method");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException("span must be non-empty and non-negative: [" + start + ", " + end + ")");
        }
        if (!(confidence > 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("confidence must be in (0, 1]: " + confidence);
        }
        if ((method == Method.EXACT) != (confidence == 1.0)) {
            throw new IllegalArgumentException("confidence 1.0 is reserved for EXACT: " + method + " " + confidence);
        }
        if (method == Method.FUZZY && confidence >= EvidenceAligner.WHITESPACE_CONFIDENCE) {
            throw new IllegalArgumentException(
                    "FUZZY confidence must stay below " + EvidenceAligner.WHITESPACE_CONFIDENCE + ": " + confidence);
        }
    }

    /** Number of UTF-16 chars the span covers. */
    public int length() {
        return end - start;
    }
}
