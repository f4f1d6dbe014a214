package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.Objects;

/** An L0 event as the graduation stages read it back. */
public record StoredEvent(String eventId, long seq, LocalDateTime ts, String eventType, String sessionId,
        String project, String payloadJson) {

    public StoredEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(payloadJson, "payloadJson");
    }
}
