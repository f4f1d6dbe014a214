package dev.codememory.config.graduate;

import java.util.Objects;

/**
 * Where quote {@code quoteIndex} of an entry was found: characters [start, end) of a
 * source event's field.
 */
public record EvidenceSpan(String entryId, int quoteIndex, String eventId, String field, int start, int end,
        double confidence, String method, String quoteHash) {

    public EvidenceSpan {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(quoteHash, "quoteHash");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
        }
        if (confidence < 0 || confidence > 1) {
            throw new IllegalArgumentException("confidence out of [0, 1]: " + confidence);
        }
    }
}
