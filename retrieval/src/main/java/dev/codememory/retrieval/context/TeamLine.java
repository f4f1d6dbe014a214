package dev.codememory.retrieval.context;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A memory a teammate published for the project, as a new session is shown it: its kind,
 * its text (the teammate's words: always through the gate), who published it, when it was
 * made and the publisher's citation.
 */
public record TeamLine(String kind, String text, String author, LocalDateTime time, String citation) {

    public TeamLine {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(time, "time");
        ContextText.requireCitation(citation);
    }

}
