package dev.codememory.retrieval.context;

import dev.codememory.processors.task.TaskStatus;
import java.util.List;
import java.util.Objects;

/**
 * A task that is not finished, as the session start shows it.
 *
 * @param title the task's title; a blank one is not shown
 * @param status {@code PENDING}, {@code IN_PROGRESS} or {@code BLOCKED}
 * @param blockers what blocks it, as written (for a blocked task)
 * @param citation the citation of the memory that recorded it
 */
public record OpenTask(String title, TaskStatus status, List<String> blockers, String citation) {

    public OpenTask {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(status, "status");
        if (status == TaskStatus.DONE || status == TaskStatus.CANCELLED) {
            throw new IllegalArgumentException("task " + citation + " is " + status.key() + ", not open");
        }
        blockers = List.copyOf(blockers);
        ContextText.requireCitation(citation);
    }

    boolean blocked() {
        return status == TaskStatus.BLOCKED;
    }
}
