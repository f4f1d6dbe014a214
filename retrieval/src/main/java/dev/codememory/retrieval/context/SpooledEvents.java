package dev.codememory.retrieval.context;

import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.processors.ingest.HookEventProcessor;
import dev.codememory.readers.workingset.SpoolTail;
import dev.codememory.readers.workingset.WorkingSetQueries.SessionSeen;
import dev.codememory.readers.workingset.WorkingSetQueries;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A session's events still in the spool, read as the ingest job would read them
 * ({@link HookEventProcessor}: the same event ids, times and projects), so that a working
 * set sees the last minute before a compaction too. They come after every ingested event
 * ({@code seq} numbers past any the database gives); events the database holds already
 * are the caller's to drop by id. Without {@code serve} nothing is ingested until a job
 * runs, so the spool also answers which session of a project came last
 * ({@link #newestSession}).
 */
@FunctionalInterface
public interface SpooledEvents {

    /** How much of the spool's newest bytes are read at most: 8 MB. */
    long MAX_BYTES = 8L << 20;

    /** The names of the events that show work, quoted as a spool line holds them. */
    List<String> WORK_NAMES = WorkingSetQueries.WORK_TYPES.stream().map(name -> "\"" + name + "\"").toList();

    /** No spool is read. */
    SpooledEvents NONE = sessionId -> List.of();

    /**
     * The session's events in the spool, in spool order; empty when none or unreadable.
     */
    List<StoredEvent> of(String sessionId);

    /**
     * The session of {@code project} in the spool, other than {@code currentSession},
     * with the last event in spool order that the working set reads
     * ({@link WorkingSetQueries#WORK_TYPES}) not older than {@code since} (null: any age)
     * and not newer than {@code until} (null: any), with that event's time; empty when
     * none or unreadable.
     */
    default Optional<SessionSeen> newestSession(String project, String currentSession, LocalDateTime since,
            LocalDateTime until) {
        return Optional.empty();
    }

    /** The spool of {@code home}. */
    public static SpooledEvents of(CodeMemoryHome home) {
        return new SpooledEvents() {
            @Override
            public List<StoredEvent> of(String sessionId) {
                List<SpoolLine> lines;
                try {
                    lines = SpoolTail.linesOf(home, sessionId, MAX_BYTES);
                }
                catch (IOException e) {
                    return List.of();
                }
                List<StoredEvent> events = new ArrayList<>();
                for (IngestRecord.Event e : events(lines)) {
                    if (sessionId.equals(e.sessionId())) {
                        events.add(new StoredEvent(e.eventId(), Long.MAX_VALUE / 2 + events.size(), e.ts(),
                                e.eventType(), e.sessionId(), e.project(), e.payloadJson()));
                    }
                }
                return events;
            }

            @Override
            public Optional<SessionSeen> newestSession(String project, String currentSession, LocalDateTime since,
                    LocalDateTime until) {
                List<SpoolLine> lines;
                try {
                    lines = SpoolTail.lines(home, MAX_BYTES);
                }
                catch (IOException e) {
                    return Optional.empty();
                }
                // newest first, and only lines that may hold work of another session are
                // parsed: the spool is in the order the hooks ran
                String current = currentSession == null ? null : "\"" + currentSession + "\"";
                HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());
                for (int i = lines.size() - 1; i >= 0; i--) {
                    String text = lines.get(i).text();
                    if (current != null && text.contains(current) || WORK_NAMES.stream().noneMatch(text::contains)) {
                        continue;
                    }
                    if (processor.process(lines.get(i)) instanceof IngestRecord.Event e && e.sessionId() != null
                            && !e.sessionId().equals(currentSession) && project.equals(e.project())
                            && WorkingSetQueries.WORK_TYPES.contains(e.eventType())
                            && (since == null || !e.ts().isBefore(since))
                            && (until == null || !e.ts().isAfter(until))) {
                        return Optional.of(new SessionSeen(e.sessionId(), e.ts()));
                    }
                }
                return Optional.empty();
            }
        };
    }

    /** The hook events among {@code lines}, as ingest reads them. */
    private static List<IngestRecord.Event> events(List<SpoolLine> lines) {
        HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());
        List<IngestRecord.Event> events = new ArrayList<>();
        for (SpoolLine line : lines) {
            if (processor.process(line) instanceof IngestRecord.Event e) {
                events.add(e);
            }
        }
        return events;
    }

}
