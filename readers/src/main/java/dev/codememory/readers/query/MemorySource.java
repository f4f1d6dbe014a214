package dev.codememory.readers.query;

import java.time.LocalDateTime;

/** A source event of a memory (one evidence span's event), with its session and time. */
public record MemorySource(String eventId, String sessionId, LocalDateTime ts) {
}
