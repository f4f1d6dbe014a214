package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A task came into being. A task never starts as {@link TaskStatus#DONE} (see
 * {@link TaskTransitions}) nor as {@link TaskStatus#BLOCKED} (it is created pending,
 * given its blockers, then blocked).
 */
public record TaskCreated(String taskId, String key, String title, String project, TaskStatus status,
        TaskPriority priority, LocalDateTime ts, String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "task_created";

    public TaskCreated {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (!taskId.equals(TaskKeys.taskId(key))) {
            throw new IllegalArgumentException("task id " + taskId + " is not derived from key " + key);
        }
        if (status == TaskStatus.DONE || status == TaskStatus.BLOCKED) {
            throw new IllegalArgumentException("task " + taskId + " may not be created " + status.key());
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

    /** Keyed by the task alone: a task is created once. */
    @Override
    public String dedupeKey() {
        return TaskKeys.digest(TYPE, taskId);
    }
}
