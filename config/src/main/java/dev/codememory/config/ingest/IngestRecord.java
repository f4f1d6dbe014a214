package dev.codememory.config.ingest;

import dev.codememory.config.injection.Injection;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * What the ingest step writes for one spool line: an event, an injection the hook
 * recorded, or a reject that keeps the line and the reason.
 */
public sealed interface IngestRecord {

    /** An L0 event row. Times are UTC. */
    record Event(String eventId, String dedupeKey, LocalDateTime ts, LocalDateTime receivedAt, String eventType,
            String sessionId, String project, String cwd, String source, String payloadJson, String checksum,
            String spoolFile, long spoolLine) implements IngestRecord {

        public Event {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(dedupeKey, "dedupeKey");
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(receivedAt, "receivedAt");
            Objects.requireNonNull(eventType, "eventType");
            Objects.requireNonNull(project, "project");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(payloadJson, "payloadJson");
            Objects.requireNonNull(checksum, "checksum");
            Objects.requireNonNull(spoolFile, "spoolFile");
        }
    }

    /** An injection record from the spool, with its deterministic id. */
    record Injected(String injectionId, Injection injection, String spoolFile, long spoolLine) implements IngestRecord {

        public Injected {
            Objects.requireNonNull(injectionId, "injectionId");
            Objects.requireNonNull(injection, "injection");
            Objects.requireNonNull(spoolFile, "spoolFile");
        }
    }

    /**
     * A line that could not become an event. {@code receivedAt} is null when the line did
     * not say.
     */
    record Reject(String rejectId, String spoolFile, long spoolLine, String reason, String rawText,
            LocalDateTime receivedAt) implements IngestRecord {

        public Reject {
            Objects.requireNonNull(rejectId, "rejectId");
            Objects.requireNonNull(spoolFile, "spoolFile");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(rawText, "rawText");
        }
    }

}
