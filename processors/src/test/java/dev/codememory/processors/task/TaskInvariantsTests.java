package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static dev.codememory.processors.task.TaskFixtures.append;
import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.TaskFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Property-style checks: random sequences of task candidates from a seeded
 * {@link Random}, resolved and folded one by one, must keep the task invariants at every
 * step of the fold.
 */
class TaskInvariantsTests {

    private static final int SEEDS = 200;

    private static final int STEPS = 25;

    private static final List<String> TITLES = List.of("Ship version two", "Write release notes",
            "Implement vector search", "Implment vector search");

    private static final List<String> STATUSES = List.of("pending", "in progress", "wip", "blocked", "done",
            "cancelled", "todo", "completed");

    private static final List<String> PRIORITIES = List.of("low", "medium", "high", "critical");

    private static final List<String> BLOCKERS = List.of("OPS-42", "API key configured", "https://example.com/spec",
            "owner/repo#3", "#12", "Write release notes", "Implement vector search index", "task_00000000000000ff",
            "Ship version two", "  ");

    private final TaskMatcher matcher = new TaskMatcher();

    private final TaskResolver resolver = new TaskResolver(matcher, new BlockerResolver(matcher));

    private final TaskProjector projector = new TaskProjector();

    @Test
    void randomHistoriesKeepEveryInvariant() {
        int statusChanges = 0;
        int corrections = 0;
        int blockedStates = 0;
        for (long seed = 0; seed < SEEDS; seed++) {
            List<TaskEvent> log = history(new Random(seed), seed);
            Checked checked = check(log);
            statusChanges += checked.statusChanges;
            corrections += checked.corrections;
            blockedStates += checked.blockedStates;
        }
        // the random histories do reach the interesting cases
        assertThat(statusChanges).isGreaterThan(1000);
        assertThat(corrections).isGreaterThan(50);
        assertThat(blockedStates).isGreaterThan(500);
    }

    /**
     * Resolves random candidates one at a time against the fold so far; each must be
     * idempotent at once.
     */
    private List<TaskEvent> history(Random random, long seed) {
        List<TaskEvent> log = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            List<String> blockers = new ArrayList<>();
            for (int i = random.nextInt(3); i > 0; i--) {
                blockers.add(BLOCKERS.get(random.nextInt(BLOCKERS.size())));
            }
            String priority = random.nextInt(3) == 0 ? PRIORITIES.get(random.nextInt(PRIORITIES.size())) : null;
            TaskCandidate candidate = new TaskCandidate(TITLES.get(random.nextInt(TITLES.size())),
                    new TaskFields(STATUSES.get(random.nextInt(STATUSES.size())), priority, blockers), PROJECT,
                    T0.plusMinutes(step), "e-" + seed + "-" + step, random.nextBoolean());
            log = append(log, resolver.resolve(candidate, InMemoryTaskLookup.of(projector.project(log))).events());
            assertThat(resolver.resolve(candidate, InMemoryTaskLookup.of(projector.project(log))).events())
                .as("seed %d step %d resolved again", seed, step)
                .isEmpty();
        }
        return log;
    }

    private record Checked(int statusChanges, int corrections, int blockedStates) {
    }

    private Checked check(List<TaskEvent> log) {
        Map<String, TaskState> states = new HashMap<>();
        Set<String> declared = new HashSet<>();
        int statusChanges = 0;
        int corrections = 0;
        int blockedStates = 0;
        for (TaskEvent event : log) {
            if (event instanceof ConditionDeclared || event instanceof ArtifactDeclared) {
                declared.add(event.entityId());
                continue;
            }
            TaskState before = states.get(event.entityId());
            if (event instanceof TaskCreated created) {
                assertThat(created.status()).isIn(TaskStatus.PENDING, TaskStatus.IN_PROGRESS, TaskStatus.CANCELLED);
                assertThat(TITLES).contains(created.title());
            }
            if (event instanceof TaskStatusChanged change) {
                statusChanges++;
                assertThat(change.from()).isEqualTo(before.status());
                assertThat(TaskTransitions.allowed(change.from(), change.to())).as("%s", change).isTrue();
                assertThat(change.from() == TaskStatus.PENDING && change.to() == TaskStatus.DONE).isFalse();
            }
            if (event instanceof TaskTransitionRejected rejected && rejected.correctedTo() != rejected.from()) {
                corrections++;
            }
            if (event instanceof TaskBlockersSet set) {
                for (BlockerRef ref : set.blockers()) {
                    if (ref.kind() == BlockerKind.TASK) {
                        assertThat(states).containsKey(ref.entityId());
                    }
                    else {
                        assertThat(declared).as("declared before use").contains(ref.entityId());
                    }
                }
            }
            TaskState after = projector.apply(before, event);
            states.put(event.entityId(), after);
            if (after.status() == TaskStatus.BLOCKED) {
                blockedStates++;
                assertThat(after.blockers()).isNotEmpty();
            }
            if (after.status() == TaskStatus.DONE) {
                assertThat(after.blockers()).isEmpty();
                assertThat(after.suggestedBlockers()).isEmpty();
            }
        }
        assertThat(states).isEqualTo(projector.project(log));
        return new Checked(statusChanges, corrections, blockedStates);
    }

}
