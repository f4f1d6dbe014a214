package dev.codememory.retrieval.query;

import java.time.LocalDateTime;
import java.util.Objects;

/** A verified memory as stored in {@code entries}. */
public record StoredMemory(String memoryId, String kind, String status, String project, String sessionId,
        LocalDateTime createdTs, String title, String body) {

    public StoredMemory {
        Objects.requireNonNull(memoryId, "memoryId");
    }

    /**
     * The searchable text: the title, then the body unless it already starts with the
     * title.
     */
    public String text() {
        return body.startsWith(title) ? body : title + "\n" + body;
    }
}
