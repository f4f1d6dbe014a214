package dev.codememory.processors.task;

import java.util.List;
import java.util.Optional;

/** A read-only view of the current tasks, as the resolvers see them. */
public interface TaskLookup {

    Optional<TaskState> byKey(String key);

    Optional<TaskState> byId(String taskId);

    /** Every task of the project, in a stable order. */
    List<TaskState> all(String project);

    /**
     * The tasks of the project that may score at least {@code floor} against a title
     * ({@link TaskMatcher}): at least every such task. All of them here; an index may
     * leave out those it can tell fall short.
     * @param key the title's task key
     * @param normalized the title, normalised
     */
    default List<TaskState> mayScore(String project, String key, String normalized, double floor) {
        return all(project);
    }

    /**
     * The first task of the project, in the order of {@link #all}, that {@code entryId}
     * spoke of.
     */
    default Optional<TaskState> bySourceEntry(String project, String entryId) {
        return all(project).stream().filter(t -> t.sourceEntryIds().contains(entryId)).findFirst();
    }

}
