package dev.codememory.processors.task;

import java.time.LocalDateTime;

/**
 * An event of the task log, the source of truth of task state; {@link TaskProjector}
 * folds them into {@link TaskState}s. Every event is about one entity and carries a
 * deterministic {@link #dedupeKey()}, so appending the same event twice stores it once.
 *
 * <p>
 * Two kinds of dedupe key: an event that brings an entity into being
 * ({@link TaskCreated}, {@link ConditionDeclared}, {@link ArtifactDeclared}) is keyed by
 * the entity alone, so the first one wins and later ones are get-or-create no-ops; an
 * event that changes a task is keyed by its whole content.
 */
public sealed interface TaskEvent permits TaskCreated, TaskStatusChanged, TaskPriorityChanged, TaskBlockersSet,
        TaskTransitionRejected, ConditionDeclared, ArtifactDeclared {

    /** The stored event type, for example {@code task_created}. */
    String type();

    /** The task, condition or artifact the event is about. */
    String entityId();

    LocalDateTime ts();

    /** The entry whose evidence produced the event. */
    String sourceEntryId();

    /** Hex sha256 of the event type and its identifying content. */
    String dedupeKey();

}
