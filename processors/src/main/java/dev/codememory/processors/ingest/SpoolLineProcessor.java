package dev.codememory.processors.ingest;

import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * The ingest step's processor. A hook-event line in plain JSON ({@link PlainEventLine}: what the hook writes, almost
 * always) becomes an {@link IngestRecord.PlainEvent} after one pass over its text: the writer lets DuckDB extract
 * the payload and compute the SHA-256 ids in bulk, where Jackson and {@code MessageDigest} per line cost most of the
 * step. Every other line (records, flagged or torn lines, escapes, fractions, repeated keys) goes through {@link
 * HookEventProcessor}, which remains the one definition of what a line becomes; the plain path yields exactly the
 * same row, which the ingest tests check line by line.
 */
public class SpoolLineProcessor implements ItemProcessor<SpoolLine, IngestRecord> {

    private final HookEventProcessor fullPath;
    private final ProjectResolver projects;

    public SpoolLineProcessor(ProjectResolver projects) {
        this.projects = projects;
        this.fullPath = new HookEventProcessor(projects);
    }

    @Override
    public IngestRecord process(SpoolLine line) {
        IngestRecord plain = line.validUtf8() && !line.torn() ? plain(line) : null;
        return plain != null ? plain : fullPath.process(line);
    }

    private IngestRecord.PlainEvent plain(SpoolLine line) {
        PlainEventLine.Fields f = PlainEventLine.read(line.text());
        if (f == null || !EventIdentity.KNOWN_EVENTS.contains(f.hookEventName())) {
            return null;
        }
        LocalDateTime receivedAt = EventIdentity.parseTime(f.receivedAt());
        if (receivedAt == null) {
            return null;
        }
        LocalDateTime eventTime = EventIdentity.parseTime(f.timestamp());
        String eventType = f.hookEventName();
        boolean byIdentity = f.identity() != null;
        String keyText = byIdentity ? EventIdentity.identityKeyText(eventType, f.identity())
                : EventIdentity.dedupeKeyText(eventType, f.sessionId(),
                        EventIdentity.moment(eventTime, f.origin(), f.receivedAt()));
        return new IngestRecord.PlainEvent(line.file(), line.lineNumber(), line.text(),
                eventTime != null ? eventTime : receivedAt, receivedAt, projects.projectOf(f.cwd()), keyText,
                !byIdentity);
    }
}
