package dev.codememory.retrieval.citation;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A memory as {@code show} prints it: its stored citation ({@code mem:xxxxxx}) and its
 * entry row.
 */
public record CitedMemory(String citation, String memoryId, String kind, String status, String stage, String project,
        String sessionId, LocalDateTime createdTs, String title, String body, String supersededBy) {

    public CitedMemory {
        Objects.requireNonNull(citation, "citation");
        Objects.requireNonNull(memoryId, "memoryId");
    }
}
