package dev.codememory.config.distill;

import java.util.List;
import java.util.Objects;

/**
 * A session the distiller is done with under its version: the memories its proven claims
 * make (none when it was skipped or gave up).
 */
public record DistillOutcome(String sessionId, String version, List<DistilledMemory> memories) {

    public DistillOutcome {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(version, "version");
        memories = List.copyOf(memories);
    }

}
