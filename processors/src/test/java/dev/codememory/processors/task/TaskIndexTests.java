package dev.codememory.processors.task;

import static dev.codememory.processors.task.TaskFixtures.PROJECT;
import static dev.codememory.processors.task.TaskFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TaskIndexTests {

    /** Words with plurals, typos one and two edits away, numbers and short words. */
    private static final String[] WORDS = { "implement", "implment", "implements", "vector", "vectors", "vectr",
            "search", "serch", "searches", "index", "indexes", "billing", "biling", "bill", "handler", "handlers",
            "handle", "documentation", "documentaton", "docmentaton", "the", "a", "for", "12", "13", "120", "api",
            "retries", "retry", "parser", "parsers", "tests", "test", "fix", "add", "café", "cafe" };

    private final TaskMatcher matcher = new TaskMatcher();

    @Test
    void rankingWithAFloorKeepsEveryTaskThatReachesItAndTheStrictMatch() {
        Random random = new Random(7);
        Map<String, TaskState> tasks = new LinkedHashMap<>();
        while (tasks.size() < 400) {
            TaskState t = state(title(random), random.nextInt(10) == 0 ? "/elsewhere" : PROJECT,
                    "entry-" + tasks.size());
            tasks.putIfAbsent(t.taskId(), t);
        }
        TaskIndex index = new TaskIndex(tasks.values());
        InMemoryTaskLookup everyTask = InMemoryTaskLookup.of(tasks);
        int strictMatches = 0;
        int candidates = 0;
        for (int q = 0; q < 400; q++) {
            String title = q % 4 == 0 ? List.copyOf(tasks.values()).get(q).title() : title(random);
            List<TaskMatch> full = matcher.rank(title, PROJECT, everyTask);
            for (double floor : new double[] { TaskMatcher.STRICT_FLOOR, TaskMatcher.CANDIDATE_MIN_SCORE }) {
                List<TaskMatch> ranked = matcher.rank(title, PROJECT, index, floor);
                assertThat(ranked).as(title).containsAll(full.stream().filter(m -> m.score() >= floor).toList());
                assertThat(full).as(title).containsAll(ranked);
                assertThat(TaskMatcher.strict(ranked)).as(title).isEqualTo(TaskMatcher.strict(full));
                candidates += ranked.size();
            }
            strictMatches += TaskMatcher.strict(full).isPresent() ? 1 : 0;
        }
        assertThat(strictMatches).as("queries with a strict match").isGreaterThan(100);
        assertThat(candidates).as("tasks scored, of 2 × 400 × 360").isLessThan(2 * 400 * 360 / 10);
    }

    @Test
    void aTaskIsFoundByKeyIdProjectAndTheEntriesThatSpokeOfIt() {
        TaskState first = state("Add the parser", PROJECT, "entry-1");
        TaskState other = state("Fix the handler", "/elsewhere", "entry-2");
        TaskIndex index = new TaskIndex(List.of(first, other));
        TaskState later = new TaskState(first.taskId(), first.key(), first.title(), PROJECT, TaskStatus.DONE,
                first.priority(), List.of(), List.of(), T0, T0.plusHours(1), List.of("entry-1", "entry-3"));

        index.put(later);

        assertThat(index.byKey(first.key())).contains(later);
        assertThat(index.byId(first.taskId())).contains(later);
        assertThat(index.all(PROJECT)).containsExactly(later);
        assertThat(index.bySourceEntry(PROJECT, "entry-3")).contains(later);
        assertThat(index.bySourceEntry(PROJECT, "entry-2")).isEmpty();
        assertThat(index.bySourceEntry("/elsewhere", "entry-2")).contains(other);
        assertThat(matcher.strict("add the parsers", PROJECT, index)).map(TaskMatch::taskId).contains(first.taskId());
    }

    private static String title(Random random) {
        List<String> words = new ArrayList<>();
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            words.add(WORDS[random.nextInt(WORDS.length)]);
        }
        return String.join(" ", words);
    }

    private static TaskState state(String title, String project, String entry) {
        String key = TaskKeys.task(project, title);
        return new TaskState(TaskKeys.taskId(key), key, title, project, TaskStatus.PENDING, TaskPriority.MEDIUM,
                List.of(), List.of(), T0, T0, List.of(entry));
    }

}
