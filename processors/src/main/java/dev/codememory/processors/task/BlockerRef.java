package dev.codememory.processors.task;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One blocker of a task, resolved to an entity.
 *
 * @param kind what the entity is
 * @param entityId the task, condition or artifact id
 * @param key that entity's canonical key
 * @param rawText the blocker as written
 * @param confidence how surely the entity is what the text meant: 1.0 for an artifact or
 * an explicit task id or key, the match score for a title match, 0.5 for a condition, 0.0
 * for the placeholder
 * @param candidates for a condition: tasks the text resembles without matching strictly,
 * best first
 * @param autoPlaceholder true only for the "unknown blocker" condition put in when a task
 * is blocked by nothing named
 */
public record BlockerRef(BlockerKind kind, String entityId, String key, String rawText, double confidence,
        List<TaskMatch> candidates, boolean autoPlaceholder) {

    public BlockerRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(entityId, "entityId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(rawText, "rawText");
        if (!(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException("confidence out of [0, 1]: " + confidence);
        }
        candidates = List.copyOf(candidates);
        if (!candidates.isEmpty() && kind != BlockerKind.CONDITION) {
            throw new IllegalArgumentException("only a condition keeps candidates, not a " + kind);
        }
        if (autoPlaceholder && kind != BlockerKind.CONDITION) {
            throw new IllegalArgumentException("the placeholder is a condition, not a " + kind);
        }
    }

    /** Everything that identifies this reference, in a fixed order, for dedupe keys. */
    String fingerprint() {
        String candidateIds = candidates.stream()
            .map(c -> c.taskId() + "=" + c.score())
            .collect(Collectors.joining(","));
        return kind + "|" + entityId + "|" + key + "|" + rawText.length() + ":" + rawText + "|" + confidence + "|"
                + candidateIds + "|" + autoPlaceholder;
    }
}
