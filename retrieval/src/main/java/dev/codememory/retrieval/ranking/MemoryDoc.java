package dev.codememory.retrieval.ranking;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A memory as the ranker sees it: id, kind, status, creation time (UTC), its searchable
 * text (title + body) and the texts of its source turns ({@code parts}, e.g. the prompt
 * and the reply of an exchange), scored on their own.
 */
public record MemoryDoc(String memoryId, String kind, String status, LocalDateTime createdTs, String text,
        List<String> parts) {

    public MemoryDoc {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdTs, "createdTs");
        text = text == null ? "" : text;
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    public MemoryDoc(String memoryId, String kind, String status, LocalDateTime createdTs, String text) {
        this(memoryId, kind, status, createdTs, text, List.of());
    }
}
