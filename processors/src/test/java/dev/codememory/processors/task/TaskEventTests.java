package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class TaskEventTests {

    private static final String KEY = TaskKeys.task(PROJECT, "Ship version two");

    private static final String ID = TaskKeys.taskId(KEY);

    private static final BlockerRef REF = new BlockerRef(BlockerKind.ARTIFACT, TaskKeys.artifactId("art:jira:OPS-1"),
            "art:jira:OPS-1", "OPS-1", 1.0, List.of(), false);

    @Test
    void typesAreTheStoredNames() {
        assertThat(List.of(TaskCreated.TYPE, TaskStatusChanged.TYPE, TaskPriorityChanged.TYPE, TaskBlockersSet.TYPE,
                TaskTransitionRejected.TYPE, ConditionDeclared.TYPE, ArtifactDeclared.TYPE))
            .containsExactly("task_created", "task_status_changed", "task_priority_changed", "task_blockers_set",
                    "task_transition_rejected", "condition_declared", "artifact_declared");
    }

    @Test
    void dedupeKeyIsDeterministicHexSha256() {
        TaskStatusChanged a = new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e1");
        TaskStatusChanged b = new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e1");
        assertThat(a.dedupeKey()).isEqualTo(b.dedupeKey()).matches("[0-9a-f]{64}");
    }

    @Test
    void changeEventsAreKeyedByTheirWholeContent() {
        TaskStatusChanged base = new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e1");
        assertThat(
                List.of(new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0.plusSeconds(1), "e1"),
                        new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e2"),
                        new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.CANCELLED, T0, "e1")))
            .extracting(TaskEvent::dedupeKey)
            .doesNotContain(base.dedupeKey())
            .doesNotHaveDuplicates();
        TaskBlockersSet replace = new TaskBlockersSet(ID, BlockerMode.REPLACE, List.of(REF), T0, "e1");
        TaskBlockersSet suggest = new TaskBlockersSet(ID, BlockerMode.SUGGEST, List.of(REF), T0, "e1");
        assertThat(replace.dedupeKey()).isNotEqualTo(suggest.dedupeKey());
    }

    @Test
    void creationAndDeclarationsAreKeyedByTheEntityAlone() {
        TaskCreated first = new TaskCreated(ID, KEY, "Ship version two", PROJECT, TaskStatus.PENDING,
                TaskPriority.MEDIUM, T0, "e1");
        TaskCreated later = new TaskCreated(ID, KEY, "ship Version Two", PROJECT, TaskStatus.IN_PROGRESS,
                TaskPriority.HIGH, T0.plusDays(2), "e9");
        assertThat(first.dedupeKey()).isEqualTo(later.dedupeKey());
        String condKey = TaskKeys.condition(PROJECT, "API key configured");
        String condId = TaskKeys.conditionId(condKey);
        assertThat(new ConditionDeclared(condId, condKey, "API key configured", PROJECT, false, T0, "e1").dedupeKey())
            .isEqualTo(new ConditionDeclared(condId, condKey, "api key configured!", PROJECT, false, T0, "e2")
                .dedupeKey());
        assertThat(new ArtifactDeclared(REF.entityId(), REF.key(), ArtifactKind.JIRA, "OPS-1", T0, "e1").dedupeKey())
            .isEqualTo(
                    new ArtifactDeclared(REF.entityId(), REF.key(), ArtifactKind.JIRA, "OPS-1", T0, "e2").dedupeKey());
    }

    @Test
    void everyEventSurvivesAJsonRoundTripWithItsDedupeKey() {
        JsonMapper mapper = JsonMapper.builder().build();
        String condKey = TaskKeys.condition(PROJECT, "API key configured");
        TaskMatch candidate = new TaskMatch(ID, KEY, "Ship version two", TaskStatus.PENDING, 0.7730769230769231);
        BlockerRef condition = new BlockerRef(BlockerKind.CONDITION, TaskKeys.conditionId(condKey), condKey,
                "API key configured", 0.5, List.of(candidate), false);
        List<TaskEvent> events = List.of(
                new TaskCreated(ID, KEY, "Ship version two", PROJECT, TaskStatus.PENDING, TaskPriority.HIGH,
                        T0.plusNanos(123_456_789), "e1"),
                new TaskStatusChanged(ID, TaskStatus.PENDING, TaskStatus.BLOCKED, T0, "e1"),
                new TaskPriorityChanged(ID, TaskPriority.HIGH, TaskPriority.LOW, T0, "e1"),
                new TaskBlockersSet(ID, BlockerMode.SUGGEST, List.of(REF, condition), T0, "e1"),
                new TaskTransitionRejected(ID, TaskStatus.PENDING, TaskStatus.DONE, TaskStatus.IN_PROGRESS, "why", T0,
                        "e1"),
                new ConditionDeclared(TaskKeys.conditionId(condKey), condKey, "API key configured", PROJECT, true, T0,
                        "e1"),
                new ArtifactDeclared(REF.entityId(), REF.key(), ArtifactKind.JIRA, "OPS-1", T0, "e1"));
        for (TaskEvent event : events) {
            TaskEvent back = mapper.readValue(mapper.writeValueAsString(event), event.getClass());
            assertThat(back).isEqualTo(event);
            assertThat(back.dedupeKey()).isEqualTo(event.dedupeKey());
        }
    }

    @Test
    void entityIdIsTheSubject() {
        assertThat(new TaskPriorityChanged(ID, TaskPriority.LOW, TaskPriority.HIGH, T0, "e1").entityId()).isEqualTo(ID);
        assertThat(new ArtifactDeclared(REF.entityId(), REF.key(), ArtifactKind.JIRA, "OPS-1", T0, "e1").entityId())
            .isEqualTo(REF.entityId());
    }

    @Test
    void taskIsNeverCreatedDoneOrBlocked() {
        assertThatThrownBy(() -> new TaskCreated(ID, KEY, "t", PROJECT, TaskStatus.DONE, TaskPriority.LOW, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("task " + ID + " may not be created done");
        assertThatThrownBy(() -> new TaskCreated(ID, KEY, "t", PROJECT, TaskStatus.BLOCKED, TaskPriority.LOW, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idsMustDeriveFromKeys() {
        assertThatThrownBy(() -> new TaskCreated("task_0000000000000000", KEY, "t", PROJECT, TaskStatus.PENDING,
                TaskPriority.LOW, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("task id task_0000000000000000 is not derived from key " + KEY);
        assertThatThrownBy(() -> new ConditionDeclared("cond_x", "cond:p:x", "x", "p", false, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ArtifactDeclared("art_x", "art:jira:A-1", ArtifactKind.JIRA, "A-1", T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void changesMustChangeSomething() {
        assertThatThrownBy(() -> new TaskStatusChanged(ID, TaskStatus.DONE, TaskStatus.DONE, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaskPriorityChanged(ID, TaskPriority.LOW, TaskPriority.LOW, T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TaskTransitionRejected(ID, TaskStatus.PENDING, TaskStatus.DONE, TaskStatus.DONE,
                "r", T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void blockersSetNeedsDistinctBlockers() {
        assertThatThrownBy(() -> new TaskBlockersSet(ID, BlockerMode.REPLACE, List.of(), T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("task " + ID + " blockers set with no blocker");
        assertThatThrownBy(() -> new TaskBlockersSet(ID, BlockerMode.REPLACE, List.of(REF, REF), T0, "e1"))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onlyConditionsKeepCandidatesOrArePlaceholders() {
        TaskMatch match = new TaskMatch(ID, KEY, "Ship version two", TaskStatus.PENDING, 0.8);
        assertThatThrownBy(() -> new BlockerRef(BlockerKind.TASK, ID, KEY, "x", 1.0, List.of(match), false))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BlockerRef(BlockerKind.ARTIFACT, "a", "k", "x", 1.0, List.of(), true))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BlockerRef(BlockerKind.CONDITION, "c", "k", "x", 1.5, List.of(), false))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stateRefusesBlockedWithoutBlockersAndDoneWithBlockers() {
        assertThatThrownBy(() -> new TaskState(ID, KEY, "t", PROJECT, TaskStatus.BLOCKED, TaskPriority.LOW, List.of(),
                List.of(), T0, T0, List.of()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("task " + ID + " is blocked without a blocker");
        assertThatThrownBy(() -> new TaskState(ID, KEY, "t", PROJECT, TaskStatus.DONE, TaskPriority.LOW, List.of(),
                List.of(REF), T0, T0, List.of()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("task " + ID + " is done but still has blockers");
    }

}
