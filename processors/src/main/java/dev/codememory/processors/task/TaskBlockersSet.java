package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A task's blockers, as one entry states them. {@link BlockerMode#REPLACE} (aligned
 * evidence) replaces the task's blockers; {@link BlockerMode#SUGGEST} (unaligned
 * evidence) only adds to its suggested blockers.
 *
 * @param blockers at least one, each entity at most once
 */
public record TaskBlockersSet(String taskId, BlockerMode mode, List<BlockerRef> blockers, LocalDateTime ts,
        String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "task_blockers_set";

    public TaskBlockersSet {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(mode, "mode");
        blockers = List.copyOf(blockers);
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (blockers.isEmpty()) {
            throw new IllegalArgumentException("task " + taskId + " blockers set with no blocker");
        }
        Set<String> seen = new HashSet<>();
        for (BlockerRef blocker : blockers) {
            if (!seen.add(blocker.entityId())) {
                throw new IllegalArgumentException(
                        "task " + taskId + " blocker " + blocker.entityId() + " listed twice");
            }
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String entityId() {
        return taskId;
    }

    @Override
    public String dedupeKey() {
        Object[] parts = new Object[4 + blockers.size()];
        parts[0] = taskId;
        parts[1] = mode;
        parts[2] = ts;
        parts[3] = sourceEntryId;
        for (int i = 0; i < blockers.size(); i++) {
            parts[4 + i] = blockers.get(i).fingerprint();
        }
        return TaskKeys.digest(TYPE, parts);
    }
}
