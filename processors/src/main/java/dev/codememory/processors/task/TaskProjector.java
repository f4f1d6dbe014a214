package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Folds task events into task states. Pure: the same events give the same states.
 *
 * <ul>
 * <li>{@link TaskCreated} starts a task; a second one for the same task changes nothing
 * at all.</li>
 * <li>{@link TaskStatusChanged} sets the status. Any status but BLOCKED drops the
 * blockers and suggested blockers (leaving BLOCKED means they were resolved; DONE never
 * has any). Entering BLOCKED with no blocker, which {@link TaskResolver} never writes,
 * gets the task's "unknown blocker" placeholder so the invariant holds for any log.</li>
 * <li>{@link TaskBlockersSet} REPLACE replaces the blockers (and drops them from the
 * suggestions); SUGGEST adds the blockers not already held or suggested to the
 * suggestions. Either is ignored on a DONE task.</li>
 * <li>{@link TaskPriorityChanged} sets the priority; {@link TaskTransitionRejected}
 * changes no field.</li>
 * <li>Every task event adds its source entry (once) and moves {@code updatedTs}
 * forward.</li>
 * <li>{@link ConditionDeclared} and {@link ArtifactDeclared} are not task state and pass
 * through.</li>
 * </ul>
 * Applying an event to the state it produced changes nothing, and {@link #project} skips
 * any event whose dedupe key it has already folded.
 */
public final class TaskProjector {

    /**
     * The state after one event.
     * @param current the task's state before, {@code null} when it does not exist yet
     * @return the state after; {@code null} when there is still no task (an event for a
     * task never created)
     * @throws IllegalArgumentException when the event is about another task than
     * {@code current}
     */
    public TaskState apply(TaskState current, TaskEvent event) {
        if (event instanceof ConditionDeclared || event instanceof ArtifactDeclared) {
            return current;
        }
        if (current == null) {
            return event instanceof TaskCreated c ? new TaskState(c.taskId(), c.key(), c.title(), c.project(),
                    c.status(), c.priority(), List.of(), List.of(), c.ts(), c.ts(), List.of(c.sourceEntryId())) : null;
        }
        if (!event.entityId().equals(current.taskId())) {
            throw new IllegalArgumentException(
                    "event for task " + event.entityId() + " applied to task " + current.taskId());
        }
        if (event instanceof TaskStatusChanged s) {
            return statusChanged(current, s);
        }
        if (event instanceof TaskPriorityChanged p) {
            return with(current, current.status(), p.to(), current.blockers(), current.suggestedBlockers(), p);
        }
        if (event instanceof TaskBlockersSet b) {
            return blockersSet(current, b);
        }
        if (event instanceof TaskCreated) {
            return current;
        }
        // TaskTransitionRejected: no field changes
        return with(current, current.status(), current.priority(), current.blockers(), current.suggestedBlockers(),
                event);
    }

    /**
     * Every task the events create, by task id in order of creation, with each distinct
     * event folded once.
     */
    public Map<String, TaskState> project(List<TaskEvent> events) {
        Map<String, TaskState> states = new LinkedHashMap<>();
        Set<String> folded = new HashSet<>();
        for (TaskEvent event : events) {
            if (!folded.add(event.dedupeKey()) || event instanceof ConditionDeclared
                    || event instanceof ArtifactDeclared) {
                continue;
            }
            TaskState next = apply(states.get(event.entityId()), event);
            if (next != null) {
                states.put(event.entityId(), next);
            }
        }
        return Collections.unmodifiableMap(states);
    }

    private static TaskState statusChanged(TaskState current, TaskStatusChanged s) {
        if (s.to() == current.status()) {
            return with(current, current.status(), current.priority(), current.blockers(), current.suggestedBlockers(),
                    s);
        }
        if (s.to() != TaskStatus.BLOCKED) {
            return with(current, s.to(), current.priority(), List.of(), List.of(), s);
        }
        List<BlockerRef> blockers = current.blockers().isEmpty()
                ? List.of(BlockerResolver.placeholderRef(current.project(), current.title())) : current.blockers();
        return with(current, TaskStatus.BLOCKED, current.priority(), blockers, current.suggestedBlockers(), s);
    }

    private static TaskState blockersSet(TaskState current, TaskBlockersSet b) {
        if (current.status() == TaskStatus.DONE) {
            return with(current, current.status(), current.priority(), current.blockers(), current.suggestedBlockers(),
                    b);
        }
        if (b.mode() == BlockerMode.REPLACE) {
            Set<String> held = ids(b.blockers());
            List<BlockerRef> suggestions = current.suggestedBlockers()
                .stream()
                .filter(s -> !held.contains(s.entityId()))
                .toList();
            return with(current, current.status(), current.priority(), b.blockers(), suggestions, b);
        }
        Set<String> known = ids(current.blockers());
        known.addAll(ids(current.suggestedBlockers()));
        List<BlockerRef> suggestions = new ArrayList<>(current.suggestedBlockers());
        for (BlockerRef blocker : b.blockers()) {
            if (known.add(blocker.entityId())) {
                suggestions.add(blocker);
            }
        }
        return with(current, current.status(), current.priority(), current.blockers(), suggestions, b);
    }

    private static TaskState with(TaskState current, TaskStatus status, TaskPriority priority,
            List<BlockerRef> blockers, List<BlockerRef> suggestions, TaskEvent event) {
        List<String> sources = current.sourceEntryIds();
        if (!sources.contains(event.sourceEntryId())) {
            sources = new ArrayList<>(sources);
            sources.add(event.sourceEntryId());
        }
        LocalDateTime updated = event.ts().isAfter(current.updatedTs()) ? event.ts() : current.updatedTs();
        return new TaskState(current.taskId(), current.key(), current.title(), current.project(), status, priority,
                blockers, suggestions, current.createdTs(), updated, sources);
    }

    private static Set<String> ids(List<BlockerRef> refs) {
        Set<String> ids = new HashSet<>();
        refs.forEach(r -> ids.add(r.entityId()));
        return ids;
    }

}
