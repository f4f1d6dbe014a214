package dev.codememory.processors.task;

import java.util.Objects;

/**
 * A recognised reference to an outside thing.
 *
 * @param kind what it is
 * @param key its canonical key, {@code art:…}
 * @param ref the reference in canonical written form: the normalised URL,
 * {@code ABC-123}, {@code owner/repo#12} or {@code #123}
 */
public record ArtifactRef(ArtifactKind kind, String key, String ref) {

    public ArtifactRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ref, "ref");
        if (!key.startsWith("art:" + kind.prefix() + ":")) {
            throw new IllegalArgumentException("artifact key " + key + " does not fit kind " + kind);
        }
    }

    /** The entity id, derived from the key. */
    public String artifactId() {
        return TaskKeys.artifactId(key);
    }
}
