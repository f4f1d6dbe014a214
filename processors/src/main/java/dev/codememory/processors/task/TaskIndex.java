package dev.codememory.processors.task;

import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The current tasks, indexed for the task stage, which resolves every task and work entry
 * of a history against them: by id, by key, by project (in task id order), by the entries
 * that spoke of them, and by the terms of their titles' words
 * ({@link TaskMatcher#terms}), so that ranking a title scores only the tasks that can
 * reach the score asked for instead of every task of the project — at a million generated
 * events, ten thousand tasks a project, each new to-do item and each commit ranked
 * against all of them. Not thread-safe.
 */
public final class TaskIndex implements TaskLookup {

    private final Map<String, TaskState> byId = new LinkedHashMap<>();

    private final Map<String, String> byKey = new HashMap<>();

    private final Map<String, TreeMap<String, TaskState>> byProject = new HashMap<>();

    private final Map<String, TreeSet<String>> bySourceEntry = new HashMap<>();

    /** Per project, per term, the tasks (by number) with a word that has the term. */
    private final Map<String, Map<String, Postings>> postings = new HashMap<>();

    private final Map<String, Set<String>> termsOfWord = new HashMap<>();

    /** Per task number, its id and how many distinct words its title has. */
    private final List<String> numbered = new ArrayList<>();

    private int[] wordCounts = new int[64];

    /**
     * Scratch of {@link #mayScore}, per task number: words shared, and the last word
     * counted.
     */
    private int[] shared = new int[0];

    private int[] lastWord = new int[0];

    public TaskIndex(Collection<TaskState> tasks) {
        tasks.forEach(this::put);
    }

    /** A task, new or in a later state (its key, title and project never change). */
    public void put(TaskState task) {
        TaskState before = byId.put(task.taskId(), task);
        byProject.computeIfAbsent(task.project(), p -> new TreeMap<>()).put(task.taskId(), task);
        for (String entry : task.sourceEntryIds()) {
            bySourceEntry.computeIfAbsent(entry, e -> new TreeSet<>()).add(task.taskId());
        }
        if (before != null) {
            return;
        }
        byKey.putIfAbsent(task.key(), task.taskId());
        int number = numbered.size();
        numbered.add(task.taskId());
        Set<String> words = TaskMatcher.words(CanonicalKeys.normalize(task.title()));
        if (number == wordCounts.length) {
            wordCounts = Arrays.copyOf(wordCounts, number * 2);
        }
        wordCounts[number] = words.size();
        Map<String, Postings> terms = postings.computeIfAbsent(task.project(), p -> new HashMap<>());
        Set<String> filed = new HashSet<>();
        for (String word : words) {
            for (String term : terms(word)) {
                if (filed.add(term)) {
                    terms.computeIfAbsent(term, t -> new Postings()).add(number);
                }
            }
        }
    }

    @Override
    public Optional<TaskState> byKey(String key) {
        String id = byKey.get(key);
        return id == null ? Optional.empty() : Optional.of(byId.get(id));
    }

    @Override
    public Optional<TaskState> byId(String taskId) {
        return Optional.ofNullable(byId.get(taskId));
    }

    /** Every task of the project, by task id. */
    @Override
    public List<TaskState> all(String project) {
        TreeMap<String, TaskState> tasks = byProject.get(project);
        return tasks == null ? List.of() : List.copyOf(tasks.values());
    }

    @Override
    public Optional<TaskState> bySourceEntry(String project, String entryId) {
        TreeSet<String> ids = bySourceEntry.get(entryId);
        if (ids == null) {
            return Optional.empty();
        }
        return ids.stream().map(byId::get).filter(t -> t.project().equals(project)).findFirst();
    }

    /**
     * The task of the key, and the tasks whose {@link TaskMatcher#bound} — from how many
     * of the title's words have a term in common with theirs — reaches {@code floor};
     * every task when {@code floor} is no more than a task sharing no word can score.
     */
    @Override
    public List<TaskState> mayScore(String project, String key, String normalized, double floor) {
        Set<String> words = TaskMatcher.words(normalized);
        if (words.isEmpty() || floor - 1e-9 <= TaskMatcher.bound(0, words.size(), 1)) {
            return all(project);
        }
        Map<String, Postings> terms = postings.getOrDefault(project, Map.of());
        if (shared.length < numbered.size()) {
            shared = new int[numbered.size() * 2];
            lastWord = new int[numbered.size() * 2];
        }
        Postings touched = new Postings();
        int word = 0;
        for (String w : words) {
            word++;
            for (String term : terms(w)) {
                Postings tasks = terms.get(term);
                for (int i = 0; tasks != null && i < tasks.size; i++) {
                    int task = tasks.numbers[i];
                    if (lastWord[task] != word) {
                        lastWord[task] = word;
                        if (shared[task]++ == 0) {
                            touched.add(task);
                        }
                    }
                }
            }
        }
        TreeMap<String, TaskState> found = new TreeMap<>();
        byKey(key).filter(t -> t.project().equals(project)).ifPresent(t -> found.put(t.taskId(), t));
        for (int i = 0; i < touched.size; i++) {
            int task = touched.numbers[i];
            if (TaskMatcher.bound(shared[task], words.size(), wordCounts[task]) >= floor - 1e-9) {
                found.put(numbered.get(task), byId.get(numbered.get(task)));
            }
            shared[task] = 0;
            lastWord[task] = 0;
        }
        return List.copyOf(found.values());
    }

    /**
     * A word's terms, computed once: titles repeat their words, and a long word has
     * dozens of deletion terms.
     */
    private Set<String> terms(String word) {
        return termsOfWord.computeIfAbsent(word, TaskMatcher::terms);
    }

    /** A growing list of task numbers. */
    private static final class Postings {

        private int[] numbers = new int[4];

        private int size;

        void add(int number) {
            if (size == numbers.length) {
                numbers = Arrays.copyOf(numbers, size * 2);
            }
            numbers[size++] = number;
        }

    }

}
