package dev.codememory.retrieval.query;

import dev.codememory.config.time.UtcMicros;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A source event of a memory (one evidence span's event), with its session and time.
 * {@code serve} holds one per source of every memory, so the time is kept as a number
 * ({@link UtcMicros}).
 */
public final class MemorySource {

    private final String eventId;

    private final String sessionId;

    private final long micros;

    public MemorySource(String eventId, String sessionId, LocalDateTime ts) {
        this.eventId = eventId;
        this.sessionId = sessionId;
        this.micros = UtcMicros.of(ts);
    }

    public String eventId() {
        return eventId;
    }

    public String sessionId() {
        return sessionId;
    }

    public LocalDateTime ts() {
        return UtcMicros.toDateTime(micros);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemorySource s && micros == s.micros && Objects.equals(eventId, s.eventId)
                && Objects.equals(sessionId, s.sessionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(eventId, sessionId, micros);
    }

    @Override
    public String toString() {
        return "MemorySource[eventId=" + eventId + ", sessionId=" + sessionId + ", ts=" + ts() + "]";
    }

}
