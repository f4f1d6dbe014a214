package dev.codememory.processors.task;

/** What a blocker reference points at. */
public enum BlockerKind {

    /** An outside thing named by URL, issue key or issue number. */
    ARTIFACT,
    /** Another task, named by id, key or a strict title match. */
    TASK,
    /**
     * Anything else: the blocker text itself, kept as a condition entity, never as a stub
     * task.
     */
    CONDITION

}
