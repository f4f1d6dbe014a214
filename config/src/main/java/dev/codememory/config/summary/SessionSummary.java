package dev.codememory.config.summary;

import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A session's summary memory, composed from its verified memories: every line of the body
 * ends with the citation of the memory it rests on, and the summary's quotes are those
 * memories' first quotes, in line order.
 *
 * @param summarizes the memories the lines cite, in order, each once
 * @param quotes the first quote of each of them, in the same order
 */
public record SessionSummary(String entryId, String sessionId, String project, LocalDateTime ts, long lastSeq,
        String title, String body, String canonicalKey, List<String> summarizes,
        List<Quote> quotes) implements ComposedMemory {

    public SessionSummary {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        summarizes = List.copyOf(summarizes);
        quotes = List.copyOf(quotes);
        ComposedMemory.requireOneQuoteEach(summarizes, quotes, "a summary");
    }
}
