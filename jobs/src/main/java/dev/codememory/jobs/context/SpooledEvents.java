package dev.codememory.jobs.context;

import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.processors.ingest.HookEventProcessor;
import dev.codememory.readers.workingset.SpoolTail;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A session's events still in the spool, read as the ingest job would read them
 * ({@link HookEventProcessor}: the same event ids, times and projects), so that a working
 * set sees the last minute before a compaction too. They come after every ingested event
 * ({@code seq} numbers past any the database gives); events the database holds already
 * are the caller's to drop by id.
 */
@FunctionalInterface
public interface SpooledEvents {

    /** How much of the spool's newest bytes are read at most: 8 MB. */
    long MAX_BYTES = 8L << 20;

    /** No spool is read. */
    SpooledEvents NONE = sessionId -> List.of();

    /**
     * The session's events in the spool, in spool order; empty when none or unreadable.
     */
    List<StoredEvent> of(String sessionId);

    /** The spool of {@code home}. */
    public static SpooledEvents of(CodeMemoryHome home) {
        return sessionId -> {
            List<SpoolLine> lines;
            try {
                lines = SpoolTail.linesOf(home, sessionId, MAX_BYTES);
            }
            catch (IOException e) {
                return List.of();
            }
            HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());
            List<StoredEvent> events = new ArrayList<>();
            for (SpoolLine line : lines) {
                if (processor.process(line) instanceof IngestRecord.Event e && sessionId.equals(e.sessionId())) {
                    events.add(new StoredEvent(e.eventId(), Long.MAX_VALUE / 2 + events.size(), e.ts(), e.eventType(),
                            e.sessionId(), e.project(), e.payloadJson()));
                }
            }
            return events;
        };
    }

}
