package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class TaskMatcherTests {

    private final TaskMatcher matcher = new TaskMatcher();

    private static TaskMatch scored(String id, double score, TaskStatus status) {
        return new TaskMatch("task_" + id, "task:p:" + id, id, status, score);
    }

    // ---- score ----

    @Test
    void sameCanonicalKeyScoresOne() {
        TaskState existing = task("Implement vector search", TaskStatus.PENDING);
        List<TaskMatch> ranked = matcher.rank("implement  VECTOR-search!", PROJECT,
                InMemoryTaskLookup.of(List.of(existing)));
        assertThat(ranked).containsExactly(
                new TaskMatch(existing.taskId(), existing.key(), existing.title(), TaskStatus.PENDING, 1.0));
    }

    @Test
    void typoScoresAllWordsSharedPlusCharacterSimilarity() {
        // J = 1 (implment ~ implement), C = 1 - 1/23
        assertThat(TaskMatcher.similarity("implment vector search", "implement vector search"))
            .isCloseTo(0.6 + 0.4 * 22.0 / 23.0, within(1e-12));
    }

    @Test
    void changedNumberIsNotForgiven() {
        // J = 2/4 (12 and 13 differ), C = 1 - 1/10
        assertThat(TaskMatcher.similarity("fix bug 12", "fix bug 13")).isCloseTo(0.66, within(1e-12));
    }

    @Test
    void extraWordDropsBelowStrict() {
        // J = 4/5; C is best without spaces: "addtestsforparser" vs
        // "addtestsfortheparser", 1 - 3/20
        assertThat(TaskMatcher.similarity("add tests for parser", "add tests for the parser"))
            .isCloseTo(0.6 * 0.8 + 0.4 * (17.0 / 20.0), within(1e-12));
    }

    @Test
    void reorderedWordsScoreTheInexactCap() {
        assertThat(TaskMatcher.similarity("vector search implement", "implement vector search")).isEqualTo(0.99);
    }

    @Test
    void pluralsAndLongTyposAreTheSameWordButShortOnesAreNot() {
        assertThat(TaskMatcher.sameWord("tests", "test")).isTrue();
        assertThat(TaskMatcher.sameWord("implment", "implement")).isTrue();
        assertThat(TaskMatcher.sameWord("configuraton", "confguraton")).isTrue();
        assertThat(TaskMatcher.sameWord("jsonb", "json")).isFalse();
        assertThat(TaskMatcher.sameWord("login", "logout")).isFalse();
        assertThat(TaskMatcher.sameWord("v17", "v18")).isFalse();
    }

    @Test
    void ranksBestFirstWithinTheProjectOnly() {
        TaskState close = task("Implement vector search", TaskStatus.PENDING);
        TaskState far = task("Write release notes", TaskStatus.PENDING);
        String otherKey = TaskKeys.task("other", "Implement vector search");
        TaskState elsewhere = new TaskState(TaskKeys.taskId(otherKey), otherKey, "Implement vector search", "other",
                TaskStatus.PENDING, TaskPriority.LOW, List.of(), List.of(), TaskFixtures.T0, TaskFixtures.T0,
                List.of());
        List<TaskMatch> ranked = matcher.rank("Implment vector search", PROJECT,
                InMemoryTaskLookup.of(List.of(far, elsewhere, close)));
        assertThat(ranked).extracting(TaskMatch::taskId).containsExactly(close.taskId(), far.taskId());
        assertThat(ranked.get(0).score()).isCloseTo(0.6 + 0.4 * 22.0 / 23.0, within(1e-12));
    }

    // ---- strict ----

    @Test
    void loneTypoMatchIsStrict() {
        TaskState existing = task("Implement vector search", TaskStatus.IN_PROGRESS);
        assertThat(matcher.strict("Implment vector search", PROJECT, InMemoryTaskLookup.of(List.of(existing))))
            .map(TaskMatch::taskId)
            .contains(existing.taskId());
    }

    @Test
    void twoSimilarTasksGiveNoStrictMatch() {
        TaskState a = task("Implement vector search", TaskStatus.PENDING);
        TaskState b = task("Implement vectors search", TaskStatus.PENDING);
        InMemoryTaskLookup lookup = InMemoryTaskLookup.of(List.of(a, b));
        List<TaskMatch> ranked = matcher.rank("Implment vector search", PROJECT, lookup);
        assertThat(ranked.get(0).score()).isCloseTo(0.6 + 0.4 * 22.0 / 23.0, within(1e-12));
        assertThat(ranked.get(1).score()).isCloseTo(0.6 + 0.4 * 22.0 / 24.0, within(1e-12));
        assertThat(ranked.get(0).score()).isGreaterThanOrEqualTo(TaskMatcher.STRICT_MIN_SCORE);
        assertThat(ranked.get(0).score() - ranked.get(1).score()).isLessThan(TaskMatcher.STRICT_MIN_GAP);
        assertThat(matcher.strict("Implment vector search", PROJECT, lookup)).isEmpty();
    }

    @Test
    void strictNeedsTheScoreThreshold() {
        assertThat(TaskMatcher.strict(List.of(scored("a", 0.92, TaskStatus.PENDING)))).isPresent();
        assertThat(TaskMatcher.strict(List.of(scored("a", 0.9199, TaskStatus.PENDING)))).isEmpty();
    }

    @Test
    void strictNeedsTheGapToTheRunnerUp() {
        assertThat(TaskMatcher
            .strict(List.of(scored("a", 0.95, TaskStatus.PENDING), scored("b", 0.92, TaskStatus.PENDING))))
            .map(TaskMatch::taskId)
            .contains("task_a");
        assertThat(TaskMatcher
            .strict(List.of(scored("a", 0.95, TaskStatus.PENDING), scored("b", 0.921, TaskStatus.PENDING)))).isEmpty();
        assertThat(TaskMatcher
            .strict(List.of(scored("a", 1.0, TaskStatus.PENDING), scored("b", 0.99, TaskStatus.PENDING)))).isEmpty();
    }

    @Test
    void cancelledTopTaskBlocksTheMatchInsteadOfPromotingTheRunnerUp() {
        assertThat(TaskMatcher.strict(List.of(scored("a", 1.0, TaskStatus.CANCELLED)))).isEmpty();
        assertThat(TaskMatcher
            .strict(List.of(scored("a", 1.0, TaskStatus.CANCELLED), scored("b", 0.5, TaskStatus.PENDING)))).isEmpty();
    }

    @Test
    void doneTaskCanStillBeMatched() {
        TaskState done = task("Implement vector search", TaskStatus.DONE);
        assertThat(matcher.strict("Implement vector search", PROJECT, InMemoryTaskLookup.of(List.of(done))))
            .map(TaskMatch::score)
            .contains(1.0);
    }

    @Test
    void noTasksNoMatch() {
        assertThat(matcher.strict("Anything", PROJECT, InMemoryTaskLookup.empty())).isEmpty();
        assertThat(TaskMatcher.strict(List.of())).isEmpty();
    }

}
