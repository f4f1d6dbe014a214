package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/** A task moved from one status to another, as {@link TaskTransitions} allowed. */
public record TaskStatusChanged(String taskId, TaskStatus from, TaskStatus to, LocalDateTime ts,
        String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "task_status_changed";

    public TaskStatusChanged {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (from == to) {
            throw new IllegalArgumentException("task " + taskId + " status change to the same status " + to.key());
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
        return TaskKeys.digest(TYPE, taskId, from.key(), to.key(), ts, sourceEntryId);
    }
}
