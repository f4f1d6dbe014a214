package dev.codememory.config.graduate;

import java.util.Objects;

/**
 * An exact excerpt of a source text that a candidate claims to come from. Never offsets:
 * the evidence aligner finds the span itself.
 *
 * @param eventId the source event
 * @param field which text of that event: {@code prompt}, {@code reply},
 * {@code tool_input}, {@code tool_response}
 * @param text the excerpt
 */
public record Quote(String eventId, String field, String text) {

    public Quote {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            throw new IllegalArgumentException("a quote must not be blank");
        }
    }
}
