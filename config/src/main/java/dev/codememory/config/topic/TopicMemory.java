package dev.codememory.config.topic;

import dev.codememory.config.graduate.Quote;
import dev.codememory.config.summary.ComposedMemory;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * One piece of work that spans sessions, as a memory: what it is (the title), what was
 * decided, done and left open (the body, every line cited).
 *
 * @param sessionId the session of its newest member
 * @param ts the time of its newest member
 * @param members every memory the topic groups, cited in the body or not
 */
public record TopicMemory(String entryId, String project, String sessionId, LocalDateTime ts, String title, String body,
        String canonicalKey, List<String> summarizes, List<Quote> quotes,
        List<String> members) implements ComposedMemory {

    public TopicMemory {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        summarizes = List.copyOf(summarizes);
        quotes = List.copyOf(quotes);
        members = List.copyOf(members);
        ComposedMemory.requireOneQuoteEach(summarizes, quotes, "a topic");
    }
}
