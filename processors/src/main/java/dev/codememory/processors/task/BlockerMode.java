package dev.codememory.processors.task;

/** How a {@link TaskBlockersSet} event acts on a task. */
public enum BlockerMode {

    /** The blockers are confirmed by aligned evidence and replace the task's blockers. */
    REPLACE,
    /**
     * The blockers come from unaligned evidence and are only added to the task's
     * suggested blockers.
     */
    SUGGEST

}
