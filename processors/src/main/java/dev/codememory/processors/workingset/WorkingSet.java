package dev.codememory.processors.workingset;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What one session is doing right now, read from its raw events: the goal, Claude's to-do
 * list as it stands, the files edited and read most recently, the last commands with
 * their outcome and what the user decided. Each item names the event it rests on.
 *
 * @param sessionId the session the events belong to
 * @param goal the latest prompt that asked for something, the user's words; null when
 * none
 * @param todos the to-do list, open items first, then done ones
 * @param files files edited, most recent first, relative to the project when under it
 * @param commands shell commands, most recent first, each with its latest outcome
 * @param decisions what the user decided, in their words, newest first
 * @param filesRead files read and not edited since, most recent first
 * @param branch the git branch the session's transcript names last, as redacted; null
 * when unknown
 * @param lastActive the time of the session's last recorded event; null when unknown
 */
public record WorkingSet(String sessionId, Cited goal, List<Todo> todos, List<Cited> files, List<Command> commands,
        List<Cited> decisions, List<Cited> filesRead, String branch, LocalDateTime lastActive) {

    public WorkingSet {
        todos = List.copyOf(todos);
        files = List.copyOf(files);
        commands = List.copyOf(commands);
        decisions = List.copyOf(decisions);
        filesRead = List.copyOf(filesRead);
    }

    /** A working set whose last event's time is unknown. */
    public WorkingSet(String sessionId, Cited goal, List<Todo> todos, List<Cited> files, List<Command> commands,
            List<Cited> decisions, List<Cited> filesRead, String branch) {
        this(sessionId, goal, todos, files, commands, decisions, filesRead, branch, null);
    }

    /** A working set whose branch is unknown. */
    public WorkingSet(String sessionId, Cited goal, List<Todo> todos, List<Cited> files, List<Command> commands,
            List<Cited> decisions, List<Cited> filesRead) {
        this(sessionId, goal, todos, files, commands, decisions, filesRead, null);
    }

    /** A working set without decisions or files read. */
    public WorkingSet(String sessionId, Cited goal, List<Todo> todos, List<Cited> files, List<Command> commands) {
        this(sessionId, goal, todos, files, commands, List.of(), List.of());
    }

    public static WorkingSet empty(String sessionId) {
        return new WorkingSet(sessionId, null, List.of(), List.of(), List.of());
    }

    /**
     * This session's working set carried on from {@code earlier}, the session it
     * continues (a compaction that went on in a new session): what this one has comes
     * first; the goal and the to-do list are {@code earlier}'s while this one has none of
     * its own (its list stands until a task tool states a new one); files, commands,
     * decisions and files read follow with {@code earlier}'s, each once, at most
     * {@link WorkingSetBuilder#MAX_ITEMS} per list. The session stays this one's; so do
     * its branch and the time of its last event, where known.
     */
    public WorkingSet continuing(WorkingSet earlier) {
        return new WorkingSet(sessionId, goal != null ? goal : earlier.goal, todos.isEmpty() ? earlier.todos : todos,
                joined(files, earlier.files, Cited::text), joined(commands, earlier.commands, Command::command),
                joined(decisions, earlier.decisions, Cited::text), joined(filesRead, earlier.filesRead, Cited::text),
                branch != null ? branch : earlier.branch, lastActive != null ? lastActive : earlier.lastActive);
    }

    private static <T> List<T> joined(List<T> first, List<T> then, java.util.function.Function<T, String> key) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        return java.util.stream.Stream.concat(first.stream(), then.stream())
            .filter(item -> seen.add(key.apply(item)))
            .limit(WorkingSetBuilder.MAX_ITEMS)
            .toList();
    }

    /** True when there is nothing to show. */
    public boolean isEmpty() {
        return goal == null && todos.isEmpty() && files.isEmpty() && commands.isEmpty() && decisions.isEmpty()
                && filesRead.isEmpty();
    }

    /** A text and the event it was read from. */
    public record Cited(String text, String eventId) {

        public Cited {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(eventId, "eventId");
        }
    }

    /**
     * A to-do item: Claude's words (tool input).
     *
     * @param status pending, in_progress or done
     */
    public record Todo(String title, String status, String eventId) {

        public Todo {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(eventId, "eventId");
        }

        public boolean open() {
            return !"done".equals(status);
        }
    }

    /**
     * A shell command as Claude wrote it (tool input) and whether its latest run failed;
     * never its output.
     */
    public record Command(String command, boolean failed, String eventId) {

        public Command {
            Objects.requireNonNull(command, "command");
            Objects.requireNonNull(eventId, "eventId");
        }
    }

}
