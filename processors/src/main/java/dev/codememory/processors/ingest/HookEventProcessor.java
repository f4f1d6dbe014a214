package dev.codememory.processors.ingest;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.Set;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * Turns one spool line into an event row, an injection record (lines marked
 * {@code "record":"injection"}, see {@link InjectionLine}) or a reject with its reason.
 * Never throws for bad data: every line ends up somewhere visible.
 *
 * <p>
 * Identity ({@link EventIdentity}, shared with the hook): {@code dedupe_key} = SHA-256 of
 * the hook event name, the session, the event's moment and the event JSON. The moment is
 * the hook line's {@code timestamp} when given (so a re-import of the same history adds
 * nothing), else the time of receipt (two identical prompts typed a minute apart are two
 * events), or, for imported lines without a timestamp, their origin (file and line). A
 * line that names its own identity (transcript import) is keyed by the event name and
 * that identity only. {@code event_id} is derived from the key.
 *
 * <p>
 * The line is read by the hook's own parser ({@link Json}) and the payload written by
 * {@link EventIdentity#payload}, the hook's writer: one writer decides the bytes an event
 * id hashes, on both sides of the spool.
 */
public class HookEventProcessor implements ItemProcessor<SpoolLine, IngestRecord> {

    /**
     * The hook events Claude Code's hooks reference documents; others are rejected with
     * the name.
     */
    public static final Set<String> KNOWN_EVENTS = EventIdentity.KNOWN_EVENTS;

    private static final int MAX_REASON_DETAIL = 200;

    private final ProjectResolver projects;

    public HookEventProcessor(ProjectResolver projects) {
        this.projects = projects;
    }

    @Override
    public IngestRecord process(SpoolLine line) {
        if (!line.validUtf8()) {
            return reject(line, line.torn() ? "torn spool line (writer stopped mid-line) and not valid UTF-8"
                    : "spool line is not valid UTF-8", null);
        }
        if (line.text().isBlank()) {
            return reject(line, "spool line is not a JSON object", null);
        }
        Object parsed;
        try {
            parsed = Json.parse(line.text());
        }
        catch (JsonParseException e) {
            String why = line.torn() ? "torn spool line (writer stopped mid-line)" : "spool line is not valid JSON";
            return reject(line, why + ": " + shorten(e.getMessage()), null);
        }
        if (!(parsed instanceof Map<?, ?> envelope)) {
            return reject(line, "spool line is not a JSON object", null);
        }
        if (envelope.containsKey(InjectionLine.RECORD_KEY)) {
            return record(line, envelope);
        }
        String receivedAtText = string(envelope, "received_at");
        LocalDateTime receivedAt = parseTime(receivedAtText);
        if (envelope.containsKey("error")) {
            String raw = envelope.get("raw") instanceof String r ? r : "";
            String error = envelope.get("error") instanceof String e ? e : "";
            return reject(line, "hook input rejected: " + error, raw, receivedAt);
        }
        if (receivedAt == null) {
            return reject(line, "spool line has no valid received_at", receivedAt);
        }
        if (!(envelope.get("event") instanceof Map<?, ?> event)) {
            return reject(line, "spool line has no hook event object", receivedAt);
        }
        String eventType = string(event, "hook_event_name");
        if (eventType == null || eventType.isBlank()) {
            return reject(line, "hook event has no hook_event_name", receivedAt);
        }
        if (!KNOWN_EVENTS.contains(eventType)) {
            return reject(line, "unknown hook event '" + shorten(eventType) + "'", receivedAt);
        }
        String payload;
        try {
            payload = EventIdentity.payload(event);
        }
        catch (NumberFormatException | ArithmeticException e) {
            return reject(line, "hook event holds a number that cannot be read exactly", receivedAt);
        }
        String source = string(envelope, "source");
        return event(line, projects, eventType, string(event, "session_id"), string(event, "cwd"),
                source != null ? source : "hook", string(envelope, "origin"), string(envelope, EventIdentity.IDENTITY),
                receivedAtText, receivedAt, parseTime(string(event, "timestamp")), payload);
    }

    /**
     * The event row of a hook event, however its line was read: the one place its dedupe
     * key, id, time and project are decided. {@code identity}: the identity a rebuilt
     * event names, or null; {@code eventTime}: the event's own time, or null.
     */
    static IngestRecord.Event event(SpoolLine line, ProjectResolver projects, String eventType, String sessionId,
            String cwd, String source, String origin, String identity, String receivedAtText, LocalDateTime receivedAt,
            LocalDateTime eventTime, String payload) {
        String dedupeKey = identity != null ? EventIdentity.identityKey(eventType, identity) : EventIdentity
            .dedupeKey(eventType, sessionId, EventIdentity.moment(eventTime, origin, receivedAtText), payload);
        return new IngestRecord.Event(EventIdentity.eventId(dedupeKey), dedupeKey,
                eventTime != null ? eventTime : receivedAt, receivedAt, eventType, sessionId, projects.projectOf(cwd),
                cwd, source, payload, sha256(payload), line.file(), line.lineNumber());
    }

    /**
     * A line the hook wrote about itself rather than a hook event; today only injection
     * records.
     */
    private IngestRecord record(SpoolLine line, Map<?, ?> envelope) {
        Object kind = envelope.get(InjectionLine.RECORD_KEY);
        if (!InjectionLine.RECORD.equals(kind)) {
            String name = kind instanceof String k ? k : Json.write(kind);
            return reject(line, "unknown spool record '" + shorten(name) + "'", null);
        }
        LocalDateTime injectedAt = envelope.get(InjectionLine.RECORD) instanceof Map<?, ?> record
                ? parseTime(string(record, "injected_at")) : null;
        try {
            Injection injection = InjectionLine.read(line.text());
            return new IngestRecord.Injected(injection.injectionId(), injection, line.file(), line.lineNumber());
        }
        catch (IllegalArgumentException e) {
            return reject(line, "invalid injection record: " + shorten(e.getMessage()), injectedAt);
        }
    }

    private IngestRecord reject(SpoolLine line, String reason, LocalDateTime receivedAt) {
        return reject(line, reason, line.text(), receivedAt);
    }

    private static IngestRecord reject(SpoolLine line, String reason, String raw, LocalDateTime receivedAt) {
        String rejectId = "rj_" + sha256(line.file() + ':' + line.lineNumber()).substring(0, 32);
        return new IngestRecord.Reject(rejectId, line.file(), line.lineNumber(), reason, raw, receivedAt);
    }

    /** The field's value when it is a string, else null. */
    private static String string(Map<?, ?> object, String field) {
        return object.get(field) instanceof String s ? s : null;
    }

    static LocalDateTime parseTime(String text) {
        return EventIdentity.parseTime(text);
    }

    private static String shorten(String s) {
        if (s == null) {
            return "";
        }
        return s.length() <= MAX_REASON_DETAIL ? s : s.substring(0, MAX_REASON_DETAIL) + "…";
    }

    static String sha256(String s) {
        return EventIdentity.sha256(s);
    }

}
