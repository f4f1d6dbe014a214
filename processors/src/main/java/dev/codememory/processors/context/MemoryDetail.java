package dev.codememory.processors.context;

import java.util.List;
import java.util.Objects;

/**
 * A memory in full (layer 3). Its kind, session and time come with its
 * {@link ContextHit}.
 *
 * @param title its title
 * @param body its text, any length (it is cut to the budget)
 * @param evidence the quotes from its source events that support it, each shown on one
 * line
 */
public record MemoryDetail(String title, String body, List<String> evidence) {

    public MemoryDetail {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        evidence = List.copyOf(evidence);
    }
}
