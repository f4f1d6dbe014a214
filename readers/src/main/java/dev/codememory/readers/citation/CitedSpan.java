package dev.codememory.readers.citation;

/**
 * One evidence span of a memory: quote {@code quoteIndex} was found at characters [start,
 * end) of the event's field; {@code quote} is that text read back from the source, null
 * when the source is gone or shorter.
 */
public record CitedSpan(int quoteIndex, String eventId, String field, int start, int end, double confidence,
        String method, String quote) {
}
