package dev.codememory.retrieval.context;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One ranked memory offered for injection.
 *
 * @param citation its handle, {@code mem:} + URL-safe base64 ({@code mem:a7Bc3x})
 * @param memoryId the id {@link DisclosureSource} is asked with
 * @param kind decision, preference, fact, insight, task, exchange, observation or summary
 * (others are shown capitalised)
 * @param summary one line saying what was recorded (its title); may be blank
 * @param score the fused score, in [0, 1]
 * @param time when it was recorded, UTC
 * @param sessionId the session it was recorded in (empty for a team memory)
 * @param author for a memory from the team store, who published it; null for this home's
 * own
 */
public record ContextHit(String citation, String memoryId, String kind, String summary, double score,
        LocalDateTime time, String sessionId, String author) {

    public ContextHit(String citation, String memoryId, String kind, String summary, double score, LocalDateTime time,
            String sessionId) {
        this(citation, memoryId, kind, summary, score, time, sessionId, null);
    }

    public ContextHit {
        ContextText.requireCitation(citation);
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(summary, "summary");
        if (!(score >= 0.0 && score <= 1.0)) {
            throw new IllegalArgumentException("score of " + citation + " out of [0, 1]: " + score);
        }
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(sessionId, "sessionId");
    }
}
