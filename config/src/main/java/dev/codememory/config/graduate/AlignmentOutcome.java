package dev.codememory.config.graduate;

import java.util.List;
import java.util.Objects;

/**
 * The evidence of one entry: the spans found, and the failure reason when any quote was
 * not found (then the entry is never verified; the spans that were found are still kept
 * for review).
 */
public record AlignmentOutcome(String entryId, List<EvidenceSpan> spans, String failure) {

    public AlignmentOutcome {
        Objects.requireNonNull(entryId, "entryId");
        spans = List.copyOf(spans);
    }

    public boolean verified() {
        return failure == null;
    }
}
