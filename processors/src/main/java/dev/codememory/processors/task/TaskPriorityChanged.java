package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/** A task's priority changed. */
public record TaskPriorityChanged(String taskId, TaskPriority from, TaskPriority to, LocalDateTime ts,
        String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "task_priority_changed";

    public TaskPriorityChanged {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (from == to) {
            throw new IllegalArgumentException("task " + taskId + " priority change to the same priority " + to.key());
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
