package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A requested status change that {@link TaskTransitions} did not allow as asked, kept for
 * review. It changes no state by itself: when the request was corrected, a
 * {@link TaskCreated} or {@link TaskStatusChanged} carries the corrected status.
 *
 * @param from the task's status when the request came; {@link TaskStatus#PENDING} for a
 * task being created
 * @param correctedTo what the task goes to instead; equal to {@code from} when the
 * request is refused outright
 * @param reason why, in words
 */
public record TaskTransitionRejected(String taskId, TaskStatus from, TaskStatus requested, TaskStatus correctedTo,
        String reason, LocalDateTime ts, String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "task_transition_rejected";

    public TaskTransitionRejected {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(correctedTo, "correctedTo");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (requested == correctedTo) {
            throw new IllegalArgumentException(
                    "task " + taskId + " rejection grants what was requested: " + requested.key());
        }
        if (reason.isBlank()) {
            throw new IllegalArgumentException("task " + taskId + " rejection has no reason");
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
        return TaskKeys.digest(TYPE, taskId, from.key(), requested.key(), correctedTo.key(), reason, ts, sourceEntryId);
    }
}
