package dev.codememory.config.summary;

import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;

/**
 * A memory composed from other verified memories (a session's summary, a topic): every
 * line of its body ends with the citation of a memory it rests on, and its quotes are
 * those memories' first quotes, in line order, so it is stored verified with copies of
 * their spans.
 */
public interface ComposedMemory {

    String entryId();

    String project();

    /** The session it is filed under: a summary's own, a topic's newest. */
    String sessionId();

    LocalDateTime ts();

    String title();

    String body();

    String canonicalKey();

    /** The memories the lines cite, in order, each once. */
    List<String> summarizes();

    /** The first quote of each of {@link #summarizes()}, in the same order. */
    List<Quote> quotes();

    /**
     * Fails unless a composed memory cites at least one memory, with one quote each.
     * @param what what is composed, for the message ("a summary", "a topic")
     */
    static void requireOneQuoteEach(List<String> summarizes, List<Quote> quotes, String what) {
        if (summarizes.size() != quotes.size() || summarizes.isEmpty()) {
            throw new IllegalArgumentException(what + " cites at least one memory, with one quote each");
        }
    }

}
