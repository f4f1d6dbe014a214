package dev.codememory.processors.task;

import java.util.List;
import java.util.Optional;

/** A read-only view of the current tasks, as the resolvers see them. */
public interface TaskLookup {

    Optional<TaskState> byKey(String key);

    Optional<TaskState> byId(String taskId);

    /** Every task of the project, in a stable order. */
    List<TaskState> all(String project);

}
