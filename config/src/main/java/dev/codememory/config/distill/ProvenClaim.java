package dev.codememory.config.distill;

import dev.codememory.config.graduate.Quote;
import java.util.List;
import java.util.Objects;

/**
 * A claim the model made about a session that survived proof: every quote was found in
 * the session's texts (each {@link Quote} holds the exact piece of its source), it does
 * not rest on Claude's replies alone unless it is a summary sentence, and the context
 * gate withholds none of it.
 *
 * @param kind {@code learned}, {@code decision}, {@code gotcha}, {@code fact},
 * {@code how-to} or {@code summary}
 * @param text the claim, one plain sentence
 * @param reason why, for a decision; else empty
 */
public record ProvenClaim(String kind, String text, String reason, List<Quote> quotes) {

    public ProvenClaim {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        reason = reason == null ? "" : reason;
        quotes = List.copyOf(quotes);
        if (quotes.isEmpty()) {
            throw new IllegalArgumentException("a proven claim rests on at least one quote");
        }
    }

}
