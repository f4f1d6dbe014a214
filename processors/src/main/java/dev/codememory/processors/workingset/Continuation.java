package dev.codememory.processors.workingset;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How much of the last session's working set a fresh start shows in endless mode, by how
 * much its project's sessions go on with the one before (their continuity score): a
 * project whose sessions pick up the same files, tasks and topics gets the whole working
 * set; one whose sessions go their own ways gets only the goal and the open to-do items.
 */
public enum Continuation {

    /** Everything: goal, to-do list, files edited, commands, decisions, files read. */
    FULL,

    /** The goal, the to-do list, the files edited and the decisions. */
    BRIEF,

    /** The goal and the open to-do items. */
    MINIMAL;

    /** From this mean score on, the whole working set. */
    public static final double FULL_FROM = 0.5;

    /** From this mean score on, the brief one; below it, the minimal one. */
    public static final double BRIEF_FROM = 0.2;

    /**
     * The level for a mean continuity score; the whole working set when none is known.
     */
    public static Continuation of(OptionalDouble meanScore) {
        if (meanScore.isEmpty() || meanScore.getAsDouble() >= FULL_FROM) {
            return FULL;
        }
        return meanScore.getAsDouble() >= BRIEF_FROM ? BRIEF : MINIMAL;
    }

    /** The working set as this level shows it. */
    public WorkingSet cut(WorkingSet set) {
        return switch (this) {
            case FULL -> set;
            case BRIEF -> new WorkingSet(set.sessionId(), set.goal(), set.todos(), set.files(), List.of(),
                    set.decisions(), List.of(), set.branch(), set.lastActive());
            case MINIMAL ->
                new WorkingSet(set.sessionId(), set.goal(), set.todos().stream().filter(WorkingSet.Todo::open).toList(),
                        List.of(), List.of(), List.of(), List.of(), set.branch(), set.lastActive());
        };
    }

}
