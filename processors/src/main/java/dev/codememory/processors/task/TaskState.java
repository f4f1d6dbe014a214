package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A task as the fold of its events ({@link TaskProjector}). Holds the task invariants: a
 * blocked task has at least one blocker; a done task has no blockers and no suggested
 * blockers.
 *
 * @param blockers confirmed blockers (from aligned evidence, or the placeholder)
 * @param suggestedBlockers blockers named by unaligned evidence, accumulated
 * @param sourceEntryIds every entry that produced an event of this task, first seen first
 */
public record TaskState(String taskId, String key, String title, String project, TaskStatus status,
        TaskPriority priority, List<BlockerRef> blockers, List<BlockerRef> suggestedBlockers, LocalDateTime createdTs,
        LocalDateTime updatedTs, List<String> sourceEntryIds) {

    public TaskState {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(priority, "priority");
        blockers = List.copyOf(blockers);
        suggestedBlockers = List.copyOf(suggestedBlockers);
        Objects.requireNonNull(createdTs, "createdTs");
        Objects.requireNonNull(updatedTs, "updatedTs");
        sourceEntryIds = List.copyOf(sourceEntryIds);
        if (!taskId.equals(TaskKeys.taskId(key))) {
            throw new IllegalArgumentException("task id " + taskId + " is not derived from key " + key);
        }
        if (status == TaskStatus.BLOCKED && blockers.isEmpty()) {
            throw new IllegalArgumentException("task " + taskId + " is blocked without a blocker");
        }
        if (status == TaskStatus.DONE && !(blockers.isEmpty() && suggestedBlockers.isEmpty())) {
            throw new IllegalArgumentException("task " + taskId + " is done but still has blockers");
        }
    }
}
