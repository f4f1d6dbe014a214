package dev.codememory.processors.task;

import java.util.List;

/**
 * Blockers resolved to entities, with the events that declare the conditions and
 * artifacts they point at.
 *
 * @param blockers one reference per entity, in the order the texts named them
 * @param declarations a {@link ConditionDeclared} or {@link ArtifactDeclared} for each
 * condition or artifact among them (get-or-create: appending one that exists is a no-op
 * through its dedupe key)
 */
public record BlockerResolution(List<BlockerRef> blockers, List<TaskEvent> declarations) {

    public BlockerResolution {
        blockers = List.copyOf(blockers);
        declarations = List.copyOf(declarations);
    }
}
