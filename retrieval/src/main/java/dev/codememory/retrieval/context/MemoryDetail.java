package dev.codememory.retrieval.context;

import dev.codememory.capture.guard.Provenance;
import java.util.List;
import java.util.Objects;

/**
 * A memory in full (layer 3). Its kind, session and time come with its
 * {@link ContextHit}.
 *
 * @param title its title
 * @param body its text, any length (it is cut to the budget)
 * @param trusted whether title and body are the user's own words (a preference), shown as
 * they are; other memories' words pass the gate
 * @param evidence the quotes from its source events that support it, each shown on one
 * line with where it came from
 */
public record MemoryDetail(String title, String body, boolean trusted, List<Evidence> evidence) {

    /**
     * One quote and where its words came from.
     *
     * @param text the quote as read back from its source
     * @param provenance whose words they are
     */
    public record Evidence(String text, Provenance provenance) {

        public Evidence {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(provenance, "provenance");
        }
    }

    public MemoryDetail {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        evidence = List.copyOf(evidence);
    }
}
