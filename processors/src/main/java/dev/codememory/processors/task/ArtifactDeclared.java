package dev.codememory.processors.task;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * An artifact entity exists: a URL, Jira key or issue that a task waits on.
 *
 * @param ref the reference in canonical written form (see {@link ArtifactRef#ref()})
 * @param ts when it was first declared; not part of the dedupe key
 * @param sourceEntryId the entry that first declared it; not part of the dedupe key
 */
public record ArtifactDeclared(String artifactId, String key, ArtifactKind kind, String ref, LocalDateTime ts,
        String sourceEntryId) implements TaskEvent {

    public static final String TYPE = "artifact_declared";

    public ArtifactDeclared {
        Objects.requireNonNull(artifactId, "artifactId");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(sourceEntryId, "sourceEntryId");
        if (!artifactId.equals(TaskKeys.artifactId(key))) {
            throw new IllegalArgumentException("artifact id " + artifactId + " is not derived from key " + key);
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String entityId() {
        return artifactId;
    }

    /** Keyed by the artifact alone: get-or-create. */
    @Override
    public String dedupeKey() {
        return TaskKeys.digest(TYPE, artifactId);
    }
}
