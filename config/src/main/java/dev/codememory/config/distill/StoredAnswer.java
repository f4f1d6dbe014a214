package dev.codememory.config.distill;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

/**
 * What is recorded of a session's distillation: the outcome, the proven claims, the
 * rejected ones counted by reason, the attempts so far and when the next may be made.
 *
 * @param outcome {@code answered}, {@code skipped}, {@code failed} or {@code gave_up}
 */
public record StoredAnswer(String outcome, List<ProvenClaim> claims, Map<String, Integer> rejected, int attempts,
        LocalDateTime nextAttemptAt) {

    public static final String ANSWERED = "answered";

    public static final String SKIPPED = "skipped";

    public static final String FAILED = "failed";

    public static final String GAVE_UP = "gave_up";

    public StoredAnswer {
        claims = claims == null ? List.of() : List.copyOf(claims);
        rejected = rejected == null ? Map.of() : Map.copyOf(rejected);
    }

}
