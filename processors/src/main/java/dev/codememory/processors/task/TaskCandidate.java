package dev.codememory.processors.task;

import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A task as one entry states it, ready for {@link TaskResolver}.
 *
 * @param sourceEntryId the entry that states it; every event the resolver writes carries
 * it
 * @param evidenceAligned whether the entry's quotes were found in the source: confirmed
 * blockers need it
 */
public record TaskCandidate(String title, TaskFields fields, String project, LocalDateTime ts, String sourceEntryId,
        boolean evidenceAligned) {

    public TaskCandidate {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (sourceEntryId.isBlank()) {
            throw new IllegalArgumentException("sourceEntryId is blank");
        }
    }
}
