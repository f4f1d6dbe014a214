package dev.codememory.retrieval.query;

import java.time.LocalDateTime;

/**
 * A source event of a hit with its own score (see
 * {@link dev.codememory.retrieval.ranking.HybridRanker#sourceScore}). Sources are listed
 * by it, and a batch answer's events can be ranked across hits by it.
 *
 * @param answers when this event is not evidence of the memory but the reply to one of
 * its sources that asks something, that question's event id; otherwise null
 */
public record RankedSource(String eventId, String sessionId, LocalDateTime ts, double score, String answers) {

    /** A source that is evidence of the memory. */
    public RankedSource(String eventId, String sessionId, LocalDateTime ts, double score) {
        this(eventId, sessionId, ts, score, null);
    }
}
