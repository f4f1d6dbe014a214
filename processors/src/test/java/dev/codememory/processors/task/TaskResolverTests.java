package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static dev.codememory.processors.task.TaskFixtures.append;
import static dev.codememory.processors.task.TaskFixtures.candidate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TaskResolverTests {

    private static final String SHIP = "Ship version two";

    private static final String SHIP_KEY = TaskKeys.task(PROJECT, SHIP);

    private static final String SHIP_ID = TaskKeys.taskId(SHIP_KEY);

    private static final String OPS_ID = TaskKeys.artifactId("art:jira:OPS-42");

    private static final String PLACEHOLDER_ID = BlockerResolver.placeholderRef(PROJECT, SHIP).entityId();

    private final TaskMatcher matcher = new TaskMatcher();

    private final TaskResolver resolver = new TaskResolver(matcher, new BlockerResolver(matcher));

    private final TaskProjector projector = new TaskProjector();

    private List<TaskEvent> log = new ArrayList<>();

    /** Resolves against the fold of the log so far and appends the result. */
    private TaskResolution resolve(TaskCandidate candidate) {
        TaskResolution resolution = resolver.resolve(candidate, lookup());
        log = append(log, resolution.events());
        return resolution;
    }

    private InMemoryTaskLookup lookup() {
        return InMemoryTaskLookup.of(projector.project(log));
    }

    private TaskState ship() {
        return projector.project(log).get(SHIP_ID);
    }

    // ---- creating ----

    @Test
    void newTaskIsCreatedAsStatedWithMediumPriorityByDefault() {
        TaskResolution r = resolve(candidate(SHIP, "in progress", "e1", true));
        assertThat(r).isEqualTo(new TaskResolution(SHIP_ID, true, List.of(new TaskCreated(SHIP_ID, SHIP_KEY, SHIP,
                PROJECT, TaskStatus.IN_PROGRESS, TaskPriority.MEDIUM, T0, "e1"))));
    }

    @Test
    void newTaskTakesAStatedPriority() {
        assertThat(resolve(candidate(SHIP, "pending", "P0", "e1")).events()).containsExactly(
                new TaskCreated(SHIP_ID, SHIP_KEY, SHIP, PROJECT, TaskStatus.PENDING, TaskPriority.CRITICAL, T0, "e1"));
    }

    @Test
    void wordsNeverBringAFinishedTaskIntoBeing() {
        assertThat(resolve(candidate(SHIP, "done", "e1", true))).isEqualTo(new TaskResolution(null, false, List.of()));
        assertThat(resolve(candidate(SHIP, "cancelled", "e2", true)))
            .isEqualTo(new TaskResolution(null, false, List.of()));
        assertThat(ship()).isNull();
    }

    @Test
    void aToDoListRecordingANewItemDoneCreatesItPendingThenMovesItToDone() {
        assertThat(resolve(recorded(SHIP, "done", "e1", T0)).events()).containsExactly(
                new TaskCreated(SHIP_ID, SHIP_KEY, SHIP, PROJECT, TaskStatus.PENDING, TaskPriority.MEDIUM, T0, "e1"),
                new TaskStatusChanged(SHIP_ID, TaskStatus.PENDING, TaskStatus.DONE, T0, "e1"));
        assertThat(ship().status()).isEqualTo(TaskStatus.DONE);
    }

    @Test
    void aToDoListMovesATaskWhereverItSaysWithoutRejections() {
        resolve(recorded(SHIP, "pending", "e1", T0));
        assertThat(resolve(recorded(SHIP, "done", "e2", T0.plusMinutes(1))).events()).containsExactly(
                new TaskStatusChanged(SHIP_ID, TaskStatus.PENDING, TaskStatus.DONE, T0.plusMinutes(1), "e2"));
        assertThat(resolve(recorded(SHIP, "cancelled", "e3", T0.plusMinutes(2))).events()).containsExactly(
                new TaskStatusChanged(SHIP_ID, TaskStatus.DONE, TaskStatus.CANCELLED, T0.plusMinutes(2), "e3"));
        assertThat(resolve(recorded(SHIP, "done", "e4", T0.plusMinutes(3))).events()).containsExactly(
                new TaskStatusChanged(SHIP_ID, TaskStatus.CANCELLED, TaskStatus.DONE, T0.plusMinutes(3), "e4"));
        assertThat(resolve(recorded(SHIP, "done", "e5", T0.plusMinutes(4))).events()).isEmpty();
        assertThat(ship().status()).isEqualTo(TaskStatus.DONE);
    }

    @Test
    void aStatementOlderThanTheTasksLastChangeChangesNothing() {
        resolve(recorded(SHIP, "pending", "e1", T0));
        resolve(recorded(SHIP, "done", "e2", T0.plusHours(2)));
        assertThat(resolve(recorded(SHIP, "in_progress", "e3", T0.plusHours(1))))
            .isEqualTo(new TaskResolution(SHIP_ID, false, List.of()));
        assertThat(ship().status()).isEqualTo(TaskStatus.DONE);
    }

    private static TaskCandidate recorded(String title, String status, String entryId, java.time.LocalDateTime ts) {
        return new TaskCandidate(title, new dev.codememory.config.graduate.TaskFields(status, null, List.of(),
                dev.codememory.config.graduate.TaskFields.TODO_LIST), PROJECT, ts, entryId, true);
    }

    @Test
    void newBlockedTaskIsCreatedPendingThenGivenAlignedBlockersThenBlocked() {
        TaskResolution r = resolve(candidate(SHIP, "blocked", "e1", true, "OPS-42", "API key configured"));
        String condKey = TaskKeys.condition(PROJECT, "API key configured");
        assertThat(r.events()).extracting(TaskEvent::type)
            .containsExactly(ArtifactDeclared.TYPE, ConditionDeclared.TYPE, TaskCreated.TYPE, TaskBlockersSet.TYPE,
                    TaskStatusChanged.TYPE);
        assertThat(r.events().get(2)).isEqualTo(
                new TaskCreated(SHIP_ID, SHIP_KEY, SHIP, PROJECT, TaskStatus.PENDING, TaskPriority.MEDIUM, T0, "e1"));
        assertThat(r.events().get(3)).isInstanceOfSatisfying(TaskBlockersSet.class, b -> {
            assertThat(b.mode()).isEqualTo(BlockerMode.REPLACE);
            assertThat(b.blockers()).extracting(BlockerRef::entityId)
                .containsExactly(OPS_ID, TaskKeys.conditionId(condKey));
        });
        assertThat(r.events().get(4))
            .isEqualTo(new TaskStatusChanged(SHIP_ID, TaskStatus.PENDING, TaskStatus.BLOCKED, T0, "e1"));
        assertThat(ship().status()).isEqualTo(TaskStatus.BLOCKED);
        assertThat(ship().blockers()).extracting(BlockerRef::entityId)
            .containsExactly(OPS_ID, TaskKeys.conditionId(condKey));
        assertThat(ship().suggestedBlockers()).isEmpty();
    }

    @Test
    void unalignedBlockersAreOnlySuggestedAndThePlaceholderHoldsTheBlock() {
        TaskResolution r = resolve(candidate(SHIP, "blocked", "e1", false, "OPS-42"));
        assertThat(r.events()).extracting(TaskEvent::type)
            .containsExactly(ConditionDeclared.TYPE, ArtifactDeclared.TYPE, TaskCreated.TYPE, TaskBlockersSet.TYPE,
                    TaskBlockersSet.TYPE, TaskStatusChanged.TYPE);
        assertThat(r.events().get(3)).isInstanceOfSatisfying(TaskBlockersSet.class,
                b -> assertThat(b.mode()).isEqualTo(BlockerMode.REPLACE));
        assertThat(r.events().get(4)).isInstanceOfSatisfying(TaskBlockersSet.class,
                b -> assertThat(b.mode()).isEqualTo(BlockerMode.SUGGEST));
        assertThat(ship().blockers()).extracting(BlockerRef::entityId, BlockerRef::autoPlaceholder)
            .containsExactly(tuple(PLACEHOLDER_ID, true));
        assertThat(ship().suggestedBlockers()).extracting(BlockerRef::entityId).containsExactly(OPS_ID);
    }

    @Test
    void blockedWithoutNamedBlockerGetsThePlaceholder() {
        TaskResolution r = resolve(candidate(SHIP, "blocked", "e1", true));
        assertThat(r.events().get(0)).isEqualTo(
                new ConditionDeclared(PLACEHOLDER_ID, "cond:/home/dev/code-memory:unknown blocker for ship version two",
                        "unknown blocker for " + SHIP, PROJECT, true, T0, "e1"));
        assertThat(ship().blockers()).extracting(BlockerRef::entityId).containsExactly(PLACEHOLDER_ID);
    }

    @Test
    void blockersOfATaskThatIsNotBlockedAreIgnored() {
        assertThat(resolve(candidate(SHIP, "in progress", "e1", true, "OPS-42")).events()).extracting(TaskEvent::type)
            .containsExactly(TaskCreated.TYPE);
    }

    @Test
    void blankTitleAndUnknownStatusAreRefused() {
        assertThatThrownBy(() -> resolve(candidate("  --  ", "pending", "e1", true)))
            .isInstanceOf(InvalidTaskException.class);
        assertThatThrownBy(() -> resolve(candidate(SHIP, "someday", "e1", true)))
            .isInstanceOf(InvalidTaskException.class)
            .hasMessage("unknown task status: 'someday'");
    }

    // ---- updating ----

    @Test
    void pendingTaskStatedDoneIsCorrectedToInProgressAndASecondEntryFinishesIt() {
        resolve(candidate(SHIP, "pending", "e1", true));
        assertThat(resolve(candidate(SHIP, "done", "e2", true)).events()).containsExactly(
                new TaskTransitionRejected(SHIP_ID, TaskStatus.PENDING, TaskStatus.DONE, TaskStatus.IN_PROGRESS,
                        "a pending task goes through in_progress before done", T0, "e2"),
                new TaskStatusChanged(SHIP_ID, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e2"));
        assertThat(resolve(candidate(SHIP, "done", "e3", true)).events())
            .containsExactly(new TaskStatusChanged(SHIP_ID, TaskStatus.IN_PROGRESS, TaskStatus.DONE, T0, "e3"));
        assertThat(ship().status()).isEqualTo(TaskStatus.DONE);
    }

    @Test
    void strictTitleMatchUpdatesTheExistingTask() {
        resolve(candidate("Implement vector search", "pending", "e1", true));
        String id = TaskKeys.taskId(TaskKeys.task(PROJECT, "Implement vector search"));
        TaskResolution r = resolve(candidate("Implment vector search", "wip", "e2", true));
        assertThat(r).isEqualTo(new TaskResolution(id, false,
                List.of(new TaskStatusChanged(id, TaskStatus.PENDING, TaskStatus.IN_PROGRESS, T0, "e2"))));
        assertThat(projector.project(log)).hasSize(1);
    }

    @Test
    void nearMissTitleIsANewTask() {
        resolve(candidate("Implement vector search", "pending", "e1", true));
        assertThat(resolve(candidate("Implement vector search index", "pending", "e2", true)).created()).isTrue();
        assertThat(projector.project(log)).hasSize(2);
    }

    @Test
    void sameStatusWritesNothing() {
        resolve(candidate(SHIP, "in progress", "e1", true));
        assertThat(resolve(candidate(SHIP, "In-Progress", "e2", true)))
            .isEqualTo(new TaskResolution(SHIP_ID, false, List.of()));
    }

    @Test
    void changedPriorityIsWrittenAndUnstatedPriorityKept() {
        resolve(candidate(SHIP, "pending", "high", "e1"));
        assertThat(resolve(candidate(SHIP, "pending", "low", "e2")).events())
            .containsExactly(new TaskPriorityChanged(SHIP_ID, TaskPriority.HIGH, TaskPriority.LOW, T0, "e2"));
        assertThat(resolve(candidate(SHIP, "pending", null, "e3")).events()).isEmpty();
        assertThat(ship().priority()).isEqualTo(TaskPriority.LOW);
    }

    @Test
    void cancelledTaskIsNotFinishedButCanBeReopened() {
        resolve(candidate(SHIP, "pending", "e0", true));
        resolve(candidate(SHIP, "cancelled", "e1", true));
        assertThat(resolve(candidate(SHIP, "done", "e2", true)).events()).containsExactly(
                new TaskTransitionRejected(SHIP_ID, TaskStatus.CANCELLED, TaskStatus.DONE, TaskStatus.CANCELLED,
                        "a cancelled task is only reopened to pending or in_progress, not moved to done", T0, "e2"));
        assertThat(resolve(candidate(SHIP, "in progress", "e3", true)).events())
            .containsExactly(new TaskStatusChanged(SHIP_ID, TaskStatus.CANCELLED, TaskStatus.IN_PROGRESS, T0, "e3"));
    }

    @Test
    void alignedBlockersReplaceThePlaceholderWithoutAStatusChange() {
        resolve(candidate(SHIP, "blocked", "e1", true));
        TaskResolution r = resolve(candidate(SHIP, "blocked", "e2", true, "OPS-42"));
        assertThat(r.events()).extracting(TaskEvent::type).containsExactly(ArtifactDeclared.TYPE, TaskBlockersSet.TYPE);
        assertThat(ship().blockers()).extracting(BlockerRef::entityId).containsExactly(OPS_ID);
    }

    @Test
    void blockedWithoutNamedBlockerKeepsTheKnownBlockers() {
        resolve(candidate(SHIP, "blocked", "e1", true, "OPS-42"));
        assertThat(resolve(candidate(SHIP, "blocked", "e2", true)).events()).isEmpty();
        assertThat(resolve(candidate(SHIP, "blocked", "e3", false)).events()).isEmpty();
        assertThat(ship().blockers()).extracting(BlockerRef::entityId).containsExactly(OPS_ID);
    }

    @Test
    void sameBlockersFromAnotherEntryWriteNothing() {
        resolve(candidate(SHIP, "blocked", "e1", true, "OPS-42", "API key configured"));
        assertThat(resolve(candidate(SHIP, "blocked", "e2", true, "api key configured", "(OPS-42)")).events())
            .isEmpty();
        assertThat(resolve(candidate(SHIP, "blocked", "e3", false, "OPS-42")).events()).isEmpty();
    }

    @Test
    void blockerNamingAnExistingTaskLinksIt() {
        resolve(candidate("Write release notes", "in progress", "e1", true));
        resolve(candidate(SHIP, "blocked", "e2", true, "write release notes"));
        assertThat(ship().blockers()).extracting(BlockerRef::kind, BlockerRef::entityId)
            .containsExactly(tuple(BlockerKind.TASK, TaskKeys.taskId(TaskKeys.task(PROJECT, "Write release notes"))));
        assertThat(projector.project(log)).hasSize(2);
    }

    @Test
    void doneClearsBlockers() {
        resolve(candidate(SHIP, "blocked", "e1", false, "OPS-42"));
        assertThat(resolve(candidate(SHIP, "done", "e2", true)).events())
            .containsExactly(new TaskStatusChanged(SHIP_ID, TaskStatus.BLOCKED, TaskStatus.DONE, T0, "e2"));
        assertThat(ship().blockers()).isEmpty();
        assertThat(ship().suggestedBlockers()).isEmpty();
    }

    // ---- idempotency ----

    static Stream<List<TaskCandidate>> histories() {
        return Stream.of(List.of(candidate(SHIP, "pending", "e1", true)), List.of(candidate(SHIP, "done", "e1", true)),
                List.of(candidate(SHIP, "pending", "e1", true), candidate(SHIP, "done", "e2", true)),
                List.of(candidate(SHIP, "blocked", "e1", true, "OPS-42", "owner/repo#3", "API key configured")),
                List.of(candidate(SHIP, "blocked", "e1", false, "https://example.com/x")),
                List.of(candidate(SHIP, "blocked", "e1", true)),
                List.of(candidate(SHIP, "cancelled", "e1", true), candidate(SHIP, "blocked", "e2", true, "OPS-42")),
                List.of(candidate(SHIP, "in progress", "high", "e1"),
                        candidate(SHIP, "blocked", "e2", false, "x", "y")));
    }

    @ParameterizedTest
    @MethodSource("histories")
    void resolvingTheSameCandidateAgainWritesNothing(List<TaskCandidate> history) {
        for (TaskCandidate candidate : history) {
            resolve(candidate);
            List<TaskEvent> before = List.copyOf(log);
            assertThat(resolver.resolve(candidate, lookup()).events()).isEmpty();
            assertThat(log).isEqualTo(before);
        }
    }

    @Test
    void candidateThatCancelsATaskItMatchedByTitleIsNotAppliedTwice() {
        resolve(candidate("Implement vector search", "pending", "e1", true));
        TaskCandidate cancel = candidate("Implment vector search", "cancelled", "e2", true);
        assertThat(resolve(cancel).events()).extracting(TaskEvent::type).containsExactly(TaskStatusChanged.TYPE);
        // the cancelled task no longer matches strictly, but it already cites e2
        assertThat(resolver.resolve(cancel, lookup()).events()).isEmpty();
        assertThat(projector.project(log)).hasSize(1);
    }

    @Test
    void laterEntryWithTheLooseTitleOfACancelledTaskStartsANewTask() {
        resolve(candidate("Implement vector search", "pending", "e1", true));
        resolve(candidate("Implment vector search", "cancelled", "e2", true));
        assertThat(resolve(candidate("Implment vector search", "in progress", "e3", true)).created()).isTrue();
        assertThat(resolve(candidate("Implement vector search", "in progress", "e4", true)).events())
            .containsExactly(new TaskStatusChanged(TaskKeys.taskId(TaskKeys.task(PROJECT, "Implement vector search")),
                    TaskStatus.CANCELLED, TaskStatus.IN_PROGRESS, T0, "e4"));
    }

    @Test
    void replayedEventsAreDroppedByTheirDedupeKeys() {
        List<TaskEvent> first = resolver.resolve(candidate(SHIP, "blocked", "e1", true, "OPS-42"), lookup()).events();
        log = append(log, first);
        List<TaskEvent> again = resolver
            .resolve(candidate(SHIP, "blocked", "e1", true, "OPS-42"), InMemoryTaskLookup.empty())
            .events();
        assertThat(again).isEqualTo(first);
        assertThat(append(log, again)).isEqualTo(log);
    }

}
