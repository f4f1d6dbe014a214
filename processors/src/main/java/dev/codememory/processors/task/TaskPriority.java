package dev.codememory.processors.task;

import java.util.Locale;
import java.util.Map;

/** How urgent a task is. A new task without a stated priority is {@link #MEDIUM}. */
public enum TaskPriority {

    LOW, MEDIUM, HIGH, CRITICAL;

    private static final Map<String, TaskPriority> WORDS = Map.ofEntries(Map.entry("low", LOW), Map.entry("minor", LOW),
            Map.entry("p3", LOW), Map.entry("p4", LOW), Map.entry("medium", MEDIUM), Map.entry("med", MEDIUM),
            Map.entry("normal", MEDIUM), Map.entry("p2", MEDIUM), Map.entry("high", HIGH), Map.entry("major", HIGH),
            Map.entry("important", HIGH), Map.entry("p1", HIGH), Map.entry("critical", CRITICAL),
            Map.entry("urgent", CRITICAL), Map.entry("highest", CRITICAL), Map.entry("p0", CRITICAL));

    /**
     * Reads a priority: case and surrounding space do not matter; {@code p0}–{@code p4}
     * and a few synonyms ({@code urgent}, {@code minor}, {@code normal}, …) are
     * understood.
     * @throws InvalidTaskException when the text names no priority
     */
    public static TaskPriority parse(String text) {
        TaskPriority priority = WORDS.get(TaskStatus.words(text));
        if (priority == null) {
            throw new InvalidTaskException("unknown task priority: '" + text + "'");
        }
        return priority;
    }

    /** The stored form: {@code low}, {@code medium}, … */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

}
