package dev.codememory.config.distill;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A finished session as the distiller sees it: its texts in the order they happened.
 */
public record DistillSession(String sessionId, String project, LocalDateTime endedAt, List<SessionText> texts) {

    public DistillSession {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(endedAt, "endedAt");
        texts = List.copyOf(texts);
    }

}
