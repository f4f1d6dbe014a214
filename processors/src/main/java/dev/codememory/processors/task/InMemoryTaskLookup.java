package dev.codememory.processors.task;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@link TaskLookup} over a fixed set of task states, for instance the result of
 * {@link TaskProjector#project}.
 */
public final class InMemoryTaskLookup implements TaskLookup {

    private final Map<String, TaskState> byId = new LinkedHashMap<>();

    private final Map<String, TaskState> byKey = new LinkedHashMap<>();

    private InMemoryTaskLookup(Collection<TaskState> tasks) {
        for (TaskState task : tasks) {
            if (byId.putIfAbsent(task.taskId(), task) != null) {
                throw new IllegalArgumentException("task " + task.taskId() + " given twice");
            }
            byKey.put(task.key(), task);
        }
    }

    public static InMemoryTaskLookup of(Collection<TaskState> tasks) {
        return new InMemoryTaskLookup(tasks);
    }

    public static InMemoryTaskLookup of(Map<String, TaskState> tasksById) {
        return new InMemoryTaskLookup(tasksById.values());
    }

    public static InMemoryTaskLookup empty() {
        return new InMemoryTaskLookup(List.of());
    }

    @Override
    public Optional<TaskState> byKey(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    @Override
    public Optional<TaskState> byId(String taskId) {
        return Optional.ofNullable(byId.get(taskId));
    }

    @Override
    public List<TaskState> all(String project) {
        return byId.values().stream().filter(t -> t.project().equals(project)).toList();
    }

}
