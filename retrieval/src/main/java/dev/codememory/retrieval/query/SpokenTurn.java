package dev.codememory.retrieval.query;

/**
 * A prompt or reply that is a source event of a memory, with the prompt or reply that
 * follows it in its session, or null when it is the session's last.
 */
public record SpokenTurn(String eventId, MemorySource next) {
}
