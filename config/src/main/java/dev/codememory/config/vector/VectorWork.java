package dev.codememory.config.vector;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One pending outbox item: a memory to (re-)embed and upsert, or to remove from the
 * index.
 */
public record VectorWork(String memoryId, Op op, String text, String project, String kind, String status,
        LocalDateTime ts) {

    public enum Op {

        UPSERT, DELETE

    }

    public VectorWork {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(op, "op");
        if (op == Op.UPSERT) {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(project, "project");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(ts, "ts");
        }
    }
}
