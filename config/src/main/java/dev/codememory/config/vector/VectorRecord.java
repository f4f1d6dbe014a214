package dev.codememory.config.vector;

import java.time.LocalDateTime;
import java.util.Objects;

/** One memory's vector with the fields searches filter on. */
public record VectorRecord(String memoryId, float[] vector, String project, String kind, String status,
        LocalDateTime ts) {

    public VectorRecord {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(ts, "ts");
    }
}
