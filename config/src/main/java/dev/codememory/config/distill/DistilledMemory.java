package dev.codememory.config.distill;

import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A proven claim as a memory of its kind, with the spans the aligner found for its
 * quotes.
 *
 * @param entryType {@code insight}, {@code decision} or {@code fact}
 */
public record DistilledMemory(String entryId, String entryType, String project, String sessionId, LocalDateTime ts,
        String title, String body, String canonicalKey, List<Quote> quotes, List<EvidenceSpan> spans) {

    public DistilledMemory {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(entryType, "entryType");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        quotes = List.copyOf(quotes);
        spans = List.copyOf(spans);
        if (spans.size() != quotes.size()) {
            throw new IllegalArgumentException("a distilled memory has one span per quote");
        }
    }

}
