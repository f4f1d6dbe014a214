package dev.codememory.processors.task;

import java.util.Locale;
import java.util.Map;

/** Where a task stands. The allowed moves between these are {@link TaskTransitions}. */
public enum TaskStatus {

    PENDING, IN_PROGRESS, BLOCKED, DONE, CANCELLED;

    private static final Map<String, TaskStatus> WORDS = Map.ofEntries(Map.entry("pending", PENDING),
            Map.entry("todo", PENDING), Map.entry("to do", PENDING), Map.entry("open", PENDING),
            Map.entry("not started", PENDING), Map.entry("planned", PENDING), Map.entry("backlog", PENDING),
            Map.entry("in progress", IN_PROGRESS), Map.entry("inprogress", IN_PROGRESS), Map.entry("wip", IN_PROGRESS),
            Map.entry("doing", IN_PROGRESS), Map.entry("started", IN_PROGRESS), Map.entry("ongoing", IN_PROGRESS),
            Map.entry("active", IN_PROGRESS), Map.entry("blocked", BLOCKED), Map.entry("waiting", BLOCKED),
            Map.entry("stuck", BLOCKED), Map.entry("done", DONE), Map.entry("complete", DONE),
            Map.entry("completed", DONE), Map.entry("finished", DONE), Map.entry("resolved", DONE),
            Map.entry("fixed", DONE), Map.entry("closed", DONE), Map.entry("cancelled", CANCELLED),
            Map.entry("canceled", CANCELLED), Map.entry("abandoned", CANCELLED), Map.entry("dropped", CANCELLED),
            Map.entry("wontfix", CANCELLED), Map.entry("won t fix", CANCELLED), Map.entry("wont fix", CANCELLED));

    /**
     * Reads a status as an extractor or a person writes it: case, {@code -}, {@code _}
     * and extra spaces do not matter, and common synonyms are understood ({@code wip},
     * {@code todo}, {@code completed}, {@code canceled}, …).
     * @throws InvalidTaskException when the text names no status
     */
    public static TaskStatus parse(String text) {
        TaskStatus status = WORDS.get(words(text));
        if (status == null) {
            throw new InvalidTaskException("unknown task status: '" + text + "'");
        }
        return status;
    }

    /** The stored form: {@code pending}, {@code in_progress}, … */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Lower case, with runs of {@code -}, {@code _}, {@code '} and whitespace made one
     * space.
     */
    static String words(String text) {
        if (text == null) {
            return "";
        }
        return text.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-'’]+", " ").strip();
    }

}
