package dev.codememory.processors.task;

import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Shared values for the task tests. */
final class TaskFixtures {

    static final String PROJECT = "/home/dev/code-memory";
    static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 31, 10, 0);

    private TaskFixtures() {
    }

    /**
     * A task state as the projector would hold it; a blocked one holds its placeholder.
     */
    static TaskState task(String title, TaskStatus status) {
        String key = TaskKeys.task(PROJECT, title);
        List<BlockerRef> blockers = status == TaskStatus.BLOCKED
                ? List.of(BlockerResolver.placeholderRef(PROJECT, title)) : List.of();
        return new TaskState(TaskKeys.taskId(key), key, title, PROJECT, status, TaskPriority.MEDIUM, blockers,
                List.of(), T0, T0, List.of("entry-0"));
    }

    static TaskCandidate candidate(String title, String status, String entryId, boolean aligned, String... blockers) {
        return new TaskCandidate(title, new TaskFields(status, null, Arrays.asList(blockers)), PROJECT, T0, entryId,
                aligned);
    }

    static TaskCandidate candidate(String title, String status, String priority, String entryId) {
        return new TaskCandidate(title, new TaskFields(status, priority, List.of()), PROJECT, T0, entryId, true);
    }

    /**
     * Appends events to a log the way the store does: an event whose dedupe key is
     * present is dropped.
     */
    static List<TaskEvent> append(List<TaskEvent> log, List<TaskEvent> events) {
        List<TaskEvent> out = new ArrayList<>(log);
        for (TaskEvent e : events) {
            if (out.stream().noneMatch(x -> x.dedupeKey().equals(e.dedupeKey()))) {
                out.add(e);
            }
        }
        return out;
    }

}
