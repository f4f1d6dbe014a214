package dev.codememory.config.summary;

import java.util.Objects;

/**
 * What the summary stage made of one session at its current extent: its summary, or none
 * when the session left nothing to summarise. Either way the session is marked as
 * handled.
 */
public record SummaryOutcome(String sessionId, long lastSeq, SessionSummary summary) {

    public SummaryOutcome {
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
