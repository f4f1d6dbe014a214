package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A condition entity exists: a blocker that is neither an artifact nor a known task, kept
 * as its text.
 *
 * @param autoPlaceholder true for the "unknown blocker" condition of a task blocked by
 * nothing named
 * @param ts when it was first declared; not part of the dedupe key
 * @param sourceEntryId the entry that first declared it; not part of the dedupe key
 */
public record ConditionDeclared(String conditionId, String key, String text, String project, boolean autoPlaceholder,
        LocalDateTime ts, String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "condition_declared";

    public ConditionDeclared {
        Objects.requireNonNull(conditionId, "conditionId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (!conditionId.equals(TaskKeys.conditionId(key))) {
            throw new IllegalArgumentException("condition id " + conditionId + " is not derived from key " + key);
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String entityId() {
        return conditionId;
    }

    /** Keyed by the condition alone: get-or-create. */
    @Override
    public String dedupeKey() {
        return TaskKeys.digest(TYPE, conditionId);
    }
}
