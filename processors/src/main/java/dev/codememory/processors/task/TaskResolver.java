package dev.codememory.processors.task;

import dev.codememory.config.graduate.TaskFields;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns a task candidate into the task events to append.
 *
 * <ol>
 * <li>A task of the project that already lists the candidate's entry among its sources
 * has seen this candidate: nothing. (Checked first, over all tasks, because applying a
 * candidate can change how it matches: a candidate that cancels a task it matched by
 * title would not match it strictly a second time.)</li>
 * <li>Find the task: by canonical key, else by a strict title match
 * ({@link TaskMatcher#strict}); else it is new. Words alone never bring a finished task
 * into being: a prose statement that something is done or cancelled only closes a task
 * that exists, else it resolves to no task.</li>
 * <li>A statement older than the task's last change (its time before the task's
 * {@code updatedTs}) changes nothing: the newest statement wins whatever order the
 * sessions are graduated in.</li>
 * <li>A status Claude Code's to-do list recorded ({@link TaskFields#fromTodoList()}) is
 * taken as it is ({@link TaskTransitions#recorded}); a new task it records as done or
 * cancelled is created pending and then moved there.</li>
 * <li>New task: {@link TaskCreated} with the status {@link TaskTransitions#initial}
 * allows (done becomes in_progress, with a {@link TaskTransitionRejected}); priority as
 * stated, else medium. A task asked to start blocked is created pending, given its
 * blockers, then moved to blocked, so no fold step breaks an invariant.</li>
 * <li>Known task: {@link TaskPriorityChanged} when a stated priority differs; the status
 * request through {@link TaskTransitions#request}, written as
 * {@link TaskTransitionRejected} and/or {@link TaskStatusChanged}.</li>
 * <li>Blockers count only when the task ends up blocked (the fields say "empty unless
 * blocked", and every other status drops blockers). They go through
 * {@link BlockerResolver}:
 * <ul>
 * <li>aligned evidence: {@link BlockerMode#REPLACE} with the resolved blockers, unless
 * they are the ones the task already has;</li>
 * <li>unaligned evidence: {@link BlockerMode#SUGGEST} with those not already held or
 * suggested;</li>
 * <li>a task entering blocked with no confirmed blocker gets the "unknown blocker"
 * placeholder by REPLACE.</li>
 * </ul>
 * Blockers are set before the change to blocked; the condition and artifact declarations
 * they need come first of all.</li>
 * </ol>
 * Resolving the same candidate again, against the state after the first time, yields no
 * events.
 */
public final class TaskResolver {

    private final TaskMatcher matcher;

    private final BlockerResolver blockerResolver;

    public TaskResolver(TaskMatcher matcher, BlockerResolver blockerResolver) {
        this.matcher = Objects.requireNonNull(matcher, "matcher");
        this.blockerResolver = Objects.requireNonNull(blockerResolver, "blockerResolver");
    }

    /**
     * @throws InvalidTaskException when the title has no letter or digit, the project is
     * blank, or the status or priority is not one this class reads
     */
    public TaskResolution resolve(TaskCandidate candidate, TaskLookup lookup) {
        TaskFields fields = candidate.fields();
        TaskStatus requested = TaskStatus.parse(fields.status());
        TaskPriority priority = fields.priority() == null || fields.priority().isBlank() ? null
                : TaskPriority.parse(fields.priority());
        String key = TaskKeys.task(candidate.project(), candidate.title());
        Optional<TaskState> applied = lookup.bySourceEntry(candidate.project(), candidate.sourceEntryId());
        if (applied.isPresent()) {
            return new TaskResolution(applied.get().taskId(), false, List.of());
        }
        Optional<TaskState> existing = lookup.byKey(key)
            .or(() -> matcher.strict(candidate.title(), candidate.project(), lookup)
                .flatMap(m -> lookup.byId(m.taskId())));
        if (existing.isEmpty()) {
            if (!fields.fromTodoList() && (requested == TaskStatus.DONE || requested == TaskStatus.CANCELLED)) {
                return new TaskResolution(null, false, List.of());
            }
            return create(candidate, key, requested, priority, lookup);
        }
        if (candidate.ts().isBefore(existing.get().updatedTs())) {
            return new TaskResolution(existing.get().taskId(), false, List.of());
        }
        return update(candidate, existing.get(), requested, priority, lookup);
    }

    private TaskResolution create(TaskCandidate c, String key, TaskStatus requested, TaskPriority priority,
            TaskLookup lookup) {
        String taskId = TaskKeys.taskId(key);
        if (c.fields().fromTodoList() && (requested == TaskStatus.DONE || requested == TaskStatus.CANCELLED)) {
            Events out = new Events();
            out.task(new TaskCreated(taskId, key, c.title().strip(), c.project(), TaskStatus.PENDING,
                    priority == null ? TaskPriority.MEDIUM : priority, c.ts(), c.sourceEntryId()));
            out.task(new TaskStatusChanged(taskId, TaskStatus.PENDING, requested, c.ts(), c.sourceEntryId()));
            return new TaskResolution(taskId, true, out.all());
        }
        TaskTransitions.Transition t = TaskTransitions.initial(requested);
        Events out = new Events();
        TaskStatus createdAs = t.to() == TaskStatus.BLOCKED ? TaskStatus.PENDING : t.to();
        out.task(new TaskCreated(taskId, key, c.title().strip(), c.project(), createdAs,
                priority == null ? TaskPriority.MEDIUM : priority, c.ts(), c.sourceEntryId()));
        if (t.rejected()) {
            out.task(new TaskTransitionRejected(taskId, t.from(), requested, t.to(), t.reason(), c.ts(),
                    c.sourceEntryId()));
        }
        if (t.to() == TaskStatus.BLOCKED) {
            setBlockers(c, taskId, c.title().strip(), List.of(), List.of(), lookup, out);
            out.task(new TaskStatusChanged(taskId, TaskStatus.PENDING, TaskStatus.BLOCKED, c.ts(), c.sourceEntryId()));
        }
        return new TaskResolution(taskId, true, out.all());
    }

    private TaskResolution update(TaskCandidate c, TaskState current, TaskStatus requested, TaskPriority priority,
            TaskLookup lookup) {
        String taskId = current.taskId();
        Events out = new Events();
        if (priority != null && priority != current.priority()) {
            out.task(new TaskPriorityChanged(taskId, current.priority(), priority, c.ts(), c.sourceEntryId()));
        }
        TaskTransitions.Transition t = c.fields().fromTodoList() ? TaskTransitions.recorded(current.status(), requested)
                : TaskTransitions.request(current.status(), requested);
        if (t.rejected()) {
            out.task(new TaskTransitionRejected(taskId, t.from(), requested, t.to(), t.reason(), c.ts(),
                    c.sourceEntryId()));
        }
        if (t.to() == TaskStatus.BLOCKED) {
            setBlockers(c, taskId, current.title(), current.blockers(), current.suggestedBlockers(), lookup, out);
        }
        if (t.changesStatus()) {
            out.task(new TaskStatusChanged(taskId, t.from(), t.to(), c.ts(), c.sourceEntryId()));
        }
        return new TaskResolution(taskId, false, out.all());
    }

    /**
     * The blocker events of a task that ends up blocked and now holds {@code held} and
     * {@code suggested}.
     */
    private void setBlockers(TaskCandidate c, String taskId, String title, List<BlockerRef> held,
            List<BlockerRef> suggested, TaskLookup lookup, Events out) {
        BlockerResolution resolution = blockerResolver.resolve(c.fields().blockers(), c.project(), taskId, lookup,
                c.ts(), c.sourceEntryId());
        List<BlockerRef> resolved = resolution.blockers();
        Set<String> heldIds = ids(held);
        if (c.evidenceAligned() && !resolved.isEmpty()) {
            if (!ids(resolved).equals(heldIds)) {
                out.blockers(new TaskBlockersSet(taskId, BlockerMode.REPLACE, resolved, c.ts(), c.sourceEntryId()),
                        resolution);
            }
            return;
        }
        if (held.isEmpty()) {
            BlockerResolution placeholder = blockerResolver.placeholder(c.project(), title, c.ts(), c.sourceEntryId());
            out.blockers(
                    new TaskBlockersSet(taskId, BlockerMode.REPLACE, placeholder.blockers(), c.ts(), c.sourceEntryId()),
                    placeholder);
        }
        List<BlockerRef> fresh = resolved.stream().filter(b -> !heldIds.contains(b.entityId())).toList();
        Set<String> suggestedIds = ids(suggested);
        if (fresh.stream().anyMatch(b -> !suggestedIds.contains(b.entityId()))) {
            out.blockers(new TaskBlockersSet(taskId, BlockerMode.SUGGEST, fresh, c.ts(), c.sourceEntryId()),
                    resolution);
        }
    }

    private static Set<String> ids(List<BlockerRef> refs) {
        return refs.stream().map(BlockerRef::entityId).collect(Collectors.toSet());
    }

    /**
     * Declarations first, then task events, each declaration once and only when a blocker
     * event uses it.
     */
    private static final class Events {

        private final List<TaskEvent> declarations = new ArrayList<>();

        private final Set<String> declared = new HashSet<>();

        private final List<TaskEvent> taskEvents = new ArrayList<>();

        void task(TaskEvent event) {
            taskEvents.add(event);
        }

        void blockers(TaskBlockersSet set, BlockerResolution source) {
            Set<String> used = ids(set.blockers());
            for (TaskEvent declaration : source.declarations()) {
                if (used.contains(declaration.entityId()) && declared.add(declaration.entityId())) {
                    declarations.add(declaration);
                }
            }
            taskEvents.add(set);
        }

        List<TaskEvent> all() {
            List<TaskEvent> all = new ArrayList<>(declarations);
            all.addAll(taskEvents);
            return all;
        }

    }

}
