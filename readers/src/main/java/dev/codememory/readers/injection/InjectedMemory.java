package dev.codememory.readers.injection;

import java.time.LocalDateTime;

/**
 * One memory in one injection: when (UTC), in which session, for which prompt event
 * ({@code events.event_id}, null when unknown), by which hook, in which band, at which
 * rank and score, under which citation.
 */
public record InjectedMemory(String injectionId, LocalDateTime injectedAt, String sessionId, String promptEventId,
        String hookEventName, String band, int chars, int rank, String citation, String memoryId, double score) {
}
