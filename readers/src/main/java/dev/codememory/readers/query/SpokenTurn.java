package dev.codememory.readers.query;

/**
 * A prompt or reply that is a source event of a memory: the end of its text (enough to see whether it asks) and
 * the prompt or reply that follows it in its session, or null when it is the session's last.
 */
public record SpokenTurn(String eventId, String ending, MemorySource next) {

    /** How much of a turn's text {@link MemoryQueries#spokenTurns} reads: its last sentence fits in it. */
    public static final int ENDING_CHARS = 400;
}
