package dev.codememory.retrieval.citation;

/**
 * One evidence span of a memory: quote {@code quoteIndex} was found at characters [start,
 * end) of the event's field; {@code quote} is that text read back from the source, null
 * when the source is gone or shorter; {@code tool} is the event's tool name for a quote
 * from a tool call's input or response (whose words they are), else null.
 */
public record CitedSpan(int quoteIndex, String eventId, String field, int start, int end, double confidence,
        String method, String quote, String tool) {

    /** A span whose event is not a tool call. */
    public CitedSpan(int quoteIndex, String eventId, String field, int start, int end, double confidence, String method,
            String quote) {
        this(quoteIndex, eventId, field, start, end, confidence, method, quote, null);
    }
}
