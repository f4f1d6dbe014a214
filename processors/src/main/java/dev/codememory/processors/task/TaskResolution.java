package dev.codememory.processors.task;

import java.util.List;

/**
 * What {@link TaskResolver} made of one candidate.
 *
 * @param taskId the task the candidate is about, new or existing; null when it names no
 * known task and may not create one (a prose statement that an unknown task is done)
 * @param created whether the events create it
 * @param events the events to append, in order; empty when the candidate changes nothing
 */
public record TaskResolution(String taskId, boolean created, List<TaskEvent> events) {

    public TaskResolution {
        events = List.copyOf(events);
    }
}
