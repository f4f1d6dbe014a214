package dev.codememory.jobs.query;

import java.time.LocalDateTime;

/**
 * A source event of a hit with its own score: the hit's fused score plus the ranking's {@code sourceLexical} weight
 * times the share of the query's terms the event's text holds. Sources are listed by it, and a batch answer's
 * events can be ranked across hits by it.
 */
public record RankedSource(String eventId, String sessionId, LocalDateTime ts, double score) {
}
