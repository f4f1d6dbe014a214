package dev.codememory.processors.ingest;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * The ingest step's processor. A hook-event line in plain JSON ({@link PlainEventLine}:
 * what the hook writes, almost always) becomes its event after one pass over its text,
 * because the event object's text is already the payload {@link EventIdentity#payload}
 * would write: no tree is built and nothing is written again, which cost most of the
 * step. Every other line (records, flagged or torn lines, {@code \\u} escapes, fractions,
 * repeated keys, spaces) goes through {@link HookEventProcessor}, which remains the one
 * definition of what a line becomes; the ingest tests check that both paths give the same
 * rows.
 */
public class SpoolLineProcessor implements ItemProcessor<SpoolLine, IngestRecord> {

    private final ProjectResolver projects;

    private final ItemProcessor<SpoolLine, IngestRecord> fullPath;

    public SpoolLineProcessor(ProjectResolver projects) {
        this(projects, new HookEventProcessor(projects));
    }

    /**
     * {@code fullPath}: what every line that is not plain goes through
     * ({@link HookEventProcessor}).
     */
    public SpoolLineProcessor(ProjectResolver projects, ItemProcessor<SpoolLine, IngestRecord> fullPath) {
        this.projects = projects;
        this.fullPath = fullPath;
    }

    @Override
    public IngestRecord process(SpoolLine line) throws Exception {
        IngestRecord plain = line.validUtf8() && !line.torn() ? plain(line) : null;
        return plain != null ? plain : fullPath.process(line);
    }

    private IngestRecord.Event plain(SpoolLine line) {
        PlainEventLine.Fields f = PlainEventLine.read(line.text());
        if (f == null || !EventIdentity.KNOWN_EVENTS.contains(f.hookEventName())) {
            return null;
        }
        LocalDateTime receivedAt = EventIdentity.parseTime(f.receivedAt());
        if (receivedAt == null) {
            return null;
        }
        return HookEventProcessor.event(line, projects, f.hookEventName(), f.sessionId(), f.cwd(),
                f.source() != null ? f.source() : "hook", f.origin(), f.identity(), f.receivedAt(), receivedAt,
                EventIdentity.parseTime(f.timestamp()), f.payload());
    }

}
