package dev.codememory.config.graduate;

import java.util.List;
import java.util.Objects;

/**
 * What a task candidate says about a task.
 *
 * @param status pending, in_progress, blocked, done or cancelled
 * @param priority low, medium, high or critical; null when not said
 * @param blockers the blockers as written (URLs, issue keys, task ids or free text);
 * empty unless blocked
 * @param source where the statement comes from: {@link #TODO_LIST} (Claude Code's own
 * to-do list or task tools, whose status is authoritative) or {@link #PROSE} (a
 * sentence); null is read as prose
 */
public record TaskFields(String status, String priority, List<String> blockers, String source) {

    /**
     * Claude Code's TodoWrite list, task tools or task hook events: the status is what
     * the tool recorded.
     */
    public static final String TODO_LIST = "todo_list";

    /** A sentence of a prompt: the status is what the words say. */
    public static final String PROSE = "prose";

    public TaskFields {
        Objects.requireNonNull(status, "status");
        blockers = List.copyOf(blockers);
        source = source == null ? PROSE : source;
    }

    /** A statement from prose. */
    public TaskFields(String status, String priority, List<String> blockers) {
        this(status, priority, blockers, PROSE);
    }

    /**
     * Whether the status comes from Claude Code's own task tracking rather than from
     * words.
     */
    public boolean fromTodoList() {
        return TODO_LIST.equals(source);
    }
}
