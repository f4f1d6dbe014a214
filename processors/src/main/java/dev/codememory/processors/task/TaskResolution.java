package dev.codememory.processors.task;

import java.util.List;
import java.util.Objects;

/**
 * What {@link TaskResolver} made of one candidate.
 *
 * @param taskId  the task the candidate is about, new or existing
 * @param created whether the events create it
 * @param events  the events to append, in order; empty when the candidate changes nothing
 */
public record TaskResolution(String taskId, boolean created, List<TaskEvent> events) {

    public TaskResolution {
        Objects.requireNonNull(taskId, "taskId");
        events = List.copyOf(events);
    }
}
