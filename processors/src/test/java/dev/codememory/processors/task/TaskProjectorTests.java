package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskProjectorTests {

    private static final String TITLE = "Ship version two";

    private static final String KEY = TaskKeys.task(PROJECT, TITLE);

    private static final String ID = TaskKeys.taskId(KEY);

    private final TaskProjector projector = new TaskProjector();

    private static BlockerRef condition(String text) {
        String key = TaskKeys.condition(PROJECT, text);
        return new BlockerRef(BlockerKind.CONDITION, TaskKeys.conditionId(key), key, text, 0.5, List.of(), false);
    }

    private static final BlockerRef A = condition("api key configured");

    private static final BlockerRef B = condition("staging is up");

    private static final BlockerRef C = condition("legal sign off");

    private static TaskCreated created(TaskStatus status) {
        return new TaskCreated(ID, KEY, TITLE, PROJECT, status, TaskPriority.MEDIUM, T0, "e1");
    }

    private static TaskBlockersSet set(BlockerMode mode, int minute, BlockerRef... refs) {
        return new TaskBlockersSet(ID, mode, List.of(refs), T0.plusMinutes(minute), "e" + minute);
    }

    private static TaskStatusChanged status(TaskStatus from, TaskStatus to, int minute) {
        return new TaskStatusChanged(ID, from, to, T0.plusMinutes(minute), "e" + minute);
    }

    /** Pending, then REPLACE [A], then blocked. */
    private static List<TaskEvent> blockedByA() {
        return List.of(created(TaskStatus.PENDING), set(BlockerMode.REPLACE, 1, A),
                status(TaskStatus.PENDING, TaskStatus.BLOCKED, 2));
    }

    private TaskState fold(List<TaskEvent> events) {
        return projector.project(events).get(ID);
    }

    private static List<TaskEvent> plus(List<TaskEvent> events, TaskEvent... more) {
        List<TaskEvent> all = new ArrayList<>(events);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void createdStartsTheTask() {
        assertThat(projector.apply(null, created(TaskStatus.IN_PROGRESS))).isEqualTo(new TaskState(ID, KEY, TITLE,
                PROJECT, TaskStatus.IN_PROGRESS, TaskPriority.MEDIUM, List.of(), List.of(), T0, T0, List.of("e1")));
    }

    @Test
    void foldRecordsStatusSourcesAndLatestTime() {
        TaskState state = fold(blockedByA());
        assertThat(state.status()).isEqualTo(TaskStatus.BLOCKED);
        assertThat(state.blockers()).containsExactly(A);
        assertThat(state.sourceEntryIds()).containsExactly("e1", "e2");
        assertThat(state.createdTs()).isEqualTo(T0);
        assertThat(state.updatedTs()).isEqualTo(T0.plusMinutes(2));
    }

    @Test
    void replaceReplacesTheBlockers() {
        TaskState state = fold(plus(blockedByA(), set(BlockerMode.REPLACE, 3, B, C)));
        assertThat(state.blockers()).containsExactly(B, C);
        assertThat(state.suggestedBlockers()).isEmpty();
    }

    @Test
    void suggestOnlyAddsToTheSuggestions() {
        TaskState state = fold(
                plus(blockedByA(), set(BlockerMode.SUGGEST, 3, B), set(BlockerMode.SUGGEST, 4, C, B, A)));
        assertThat(state.blockers()).containsExactly(A);
        assertThat(state.suggestedBlockers()).containsExactly(B, C);
    }

    @Test
    void replaceConfirmsASuggestion() {
        TaskState state = fold(plus(blockedByA(), set(BlockerMode.SUGGEST, 3, B, C), set(BlockerMode.REPLACE, 4, B)));
        assertThat(state.blockers()).containsExactly(B);
        assertThat(state.suggestedBlockers()).containsExactly(C);
    }

    @Test
    void doneClearsBlockersAndSuggestions() {
        TaskState state = fold(
                plus(blockedByA(), set(BlockerMode.SUGGEST, 3, B), status(TaskStatus.BLOCKED, TaskStatus.DONE, 4)));
        assertThat(state.status()).isEqualTo(TaskStatus.DONE);
        assertThat(state.blockers()).isEmpty();
        assertThat(state.suggestedBlockers()).isEmpty();
    }

    @Test
    void leavingBlockedClearsBlockers() {
        TaskState state = fold(plus(blockedByA(), status(TaskStatus.BLOCKED, TaskStatus.IN_PROGRESS, 3)));
        assertThat(state.status()).isEqualTo(TaskStatus.IN_PROGRESS);
        assertThat(state.blockers()).isEmpty();
    }

    @Test
    void blockersSetOnADoneTaskIsIgnoredButItsSourceKept() {
        TaskState state = fold(
                List.of(created(TaskStatus.IN_PROGRESS), status(TaskStatus.IN_PROGRESS, TaskStatus.DONE, 1),
                        set(BlockerMode.REPLACE, 2, A), set(BlockerMode.SUGGEST, 3, B)));
        assertThat(state.status()).isEqualTo(TaskStatus.DONE);
        assertThat(state.blockers()).isEmpty();
        assertThat(state.suggestedBlockers()).isEmpty();
        assertThat(state.sourceEntryIds()).containsExactly("e1", "e2", "e3");
    }

    @Test
    void enteringBlockedWithoutBlockersGetsThePlaceholder() {
        TaskState state = fold(
                List.of(created(TaskStatus.IN_PROGRESS), status(TaskStatus.IN_PROGRESS, TaskStatus.BLOCKED, 1)));
        assertThat(state.blockers()).containsExactly(BlockerResolver.placeholderRef(PROJECT, TITLE));
    }

    @Test
    void priorityChangeSetsThePriority() {
        TaskState state = fold(List.of(created(TaskStatus.PENDING),
                new TaskPriorityChanged(ID, TaskPriority.MEDIUM, TaskPriority.CRITICAL, T0.plusMinutes(1), "e9")));
        assertThat(state.priority()).isEqualTo(TaskPriority.CRITICAL);
        assertThat(state.sourceEntryIds()).containsExactly("e1", "e9");
    }

    @Test
    void rejectionChangesNoFieldButRecordsItsSource() {
        TaskState before = fold(List.of(created(TaskStatus.PENDING)));
        TaskState after = projector.apply(before, new TaskTransitionRejected(ID, TaskStatus.PENDING, TaskStatus.DONE,
                TaskStatus.IN_PROGRESS, "why", T0, "e5"));
        assertThat(after.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(after.sourceEntryIds()).containsExactly("e1", "e5");
    }

    @Test
    void applyingAnEventToTheStateItProducedChangesNothing() {
        List<TaskEvent> events = plus(blockedByA(), set(BlockerMode.SUGGEST, 3, B), set(BlockerMode.REPLACE, 4, C),
                new TaskPriorityChanged(ID, TaskPriority.MEDIUM, TaskPriority.HIGH, T0.plusMinutes(5), "e5"),
                status(TaskStatus.BLOCKED, TaskStatus.DONE, 6), created(TaskStatus.PENDING));
        TaskState state = null;
        for (TaskEvent e : events) {
            state = projector.apply(state, e);
            assertThat(projector.apply(state, e)).as(e.type()).isEqualTo(state);
        }
    }

    @Test
    void projectFoldsAnEventSeenBeforeOnlyOnce() {
        TaskStatusChanged block = status(TaskStatus.PENDING, TaskStatus.BLOCKED, 2);
        List<TaskEvent> replayed = plus(blockedByA(), status(TaskStatus.BLOCKED, TaskStatus.DONE, 3), block,
                set(BlockerMode.REPLACE, 1, A));
        assertThat(fold(replayed)).isEqualTo(fold(plus(blockedByA(), status(TaskStatus.BLOCKED, TaskStatus.DONE, 3))));
        assertThat(fold(replayed).status()).isEqualTo(TaskStatus.DONE);
    }

    @Test
    void secondCreationOfTheSameTaskChangesNothing() {
        TaskCreated other = new TaskCreated(ID, KEY, "ship Version two", PROJECT, TaskStatus.CANCELLED,
                TaskPriority.LOW, T0.plusDays(1), "e7");
        TaskState first = fold(List.of(created(TaskStatus.PENDING)));
        assertThat(projector.apply(first, other)).isEqualTo(first);
        assertThat(fold(List.of(created(TaskStatus.PENDING), other))).isEqualTo(first);
    }

    @Test
    void eventsOfATaskNeverCreatedAreIgnored() {
        assertThat(projector.apply(null, status(TaskStatus.PENDING, TaskStatus.IN_PROGRESS, 1))).isNull();
        assertThat(projector.project(List.of(set(BlockerMode.REPLACE, 1, A)))).isEmpty();
    }

    @Test
    void declarationsAreNotTaskState() {
        ConditionDeclared declared = new ConditionDeclared(A.entityId(), A.key(), A.rawText(), PROJECT, false, T0,
                "e1");
        Map<String, TaskState> states = projector.project(List.of(declared, created(TaskStatus.PENDING)));
        assertThat(states).containsOnlyKeys(ID);
        assertThat(projector.apply(null, declared)).isNull();
    }

    @Test
    void eventOfAnotherTaskIsRefused() {
        String otherKey = TaskKeys.task(PROJECT, "Other");
        TaskState state = fold(List.of(created(TaskStatus.PENDING)));
        assertThatThrownBy(() -> projector.apply(state,
                new TaskStatusChanged(TaskKeys.taskId(otherKey), TaskStatus.PENDING, TaskStatus.DONE, T0, "e2")))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("event for task " + TaskKeys.taskId(otherKey) + " applied to task " + ID);
    }

}
