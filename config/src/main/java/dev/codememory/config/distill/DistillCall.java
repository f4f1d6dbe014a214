package dev.codememory.config.distill;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One request sent to the model and what it cost; {@code estimated} when the model did
 * not report its usage (then the request's worst case is counted).
 *
 * @param outcome {@code answered}, {@code malformed}, {@code rate_limited},
 * {@code timeout} or {@code unreachable}
 */
public record DistillCall(String sessionId, LocalDateTime at, long inputTokens, long outputTokens, boolean estimated,
        String outcome) {

    public DistillCall {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(outcome, "outcome");
    }

    public long tokens() {
        return inputTokens + outputTokens;
    }

}
