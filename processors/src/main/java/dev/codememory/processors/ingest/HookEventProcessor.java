package dev.codememory.processors.ingest;

import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.project.ProjectResolver;
import java.time.LocalDateTime;
import java.util.Set;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamWriteConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns one spool line into an event row, an injection record (lines marked {@code "record":"injection"}, see
 * {@link InjectionLine}) or a reject with its reason. Never throws for bad data: every line ends up somewhere
 * visible.
 *
 * <p>Identity ({@link EventIdentity}, shared with the hook): {@code dedupe_key} = SHA-256 of the hook event
 * name, the session, the event's moment and the event JSON. The moment is the hook line's {@code timestamp} when
 * given (so a re-import of the same history adds nothing), else the time of receipt (two identical prompts typed
 * a minute apart are two events), or, for imported lines without a timestamp, their origin (file and line). A line
 * that names its own identity (transcript import) is keyed by the event name and that identity only.
 * {@code event_id} is derived from the key.
 */
public class HookEventProcessor implements ItemProcessor<SpoolLine, IngestRecord> {

    /** The hook events Claude Code's hooks reference documents; others are rejected with the name. */
    public static final Set<String> KNOWN_EVENTS = EventIdentity.KNOWN_EVENTS;

    private static final int MAX_REASON_DETAIL = 200;

    /** Floats as BigDecimal with their zeros, so the payload keeps every number exactly (1.50, 1e400). */
    private final JsonMapper mapper = JsonMapper.builder(JsonFactory.builder()
                    // whatever the hook accepted must parse here: its parser allows 512 levels and long numbers
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(1_000).maxNumberLength(1_000_000).maxStringLength(64 << 20).build())
                    .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(1_000).build())
                    .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();
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
        JsonNode envelope;
        try {
            envelope = mapper.readTree(line.text());
        } catch (JacksonException e) {
            String why = line.torn() ? "torn spool line (writer stopped mid-line)" : "spool line is not valid JSON";
            return reject(line, why + ": " + shorten(e.getOriginalMessage()), null);
        }
        if (envelope == null || !envelope.isObject()) {
            return reject(line, "spool line is not a JSON object", null);
        }
        if (envelope.has(InjectionLine.RECORD_KEY)) {
            return record(line, envelope);
        }
        LocalDateTime receivedAt = parseTime(envelope.path("received_at").asString(null));
        if (envelope.has("error")) {
            String raw = envelope.path("raw").asString("");
            return reject(line, "hook input rejected: " + envelope.path("error").asString(""), raw, receivedAt);
        }
        if (receivedAt == null) {
            return reject(line, "spool line has no valid received_at", receivedAt);
        }
        JsonNode event = envelope.get("event");
        if (event == null || !event.isObject()) {
            return reject(line, "spool line has no hook event object", receivedAt);
        }
        JsonNode name = event.get("hook_event_name");
        if (name == null || !name.isString() || name.asString().isBlank()) {
            return reject(line, "hook event has no hook_event_name", receivedAt);
        }
        String eventType = name.asString();
        if (!KNOWN_EVENTS.contains(eventType)) {
            return reject(line, "unknown hook event '" + shorten(eventType) + "'", receivedAt);
        }
        String source = envelope.path("source").asString("hook");
        String origin = envelope.path("origin").asString(null);
        String sessionId = textOrNull(event, "session_id");
        String cwd = textOrNull(event, "cwd");
        String timestamp = textOrNull(event, "timestamp");
        String payload = mapper.writeValueAsString(event);
        return event(line, projects, eventType, sessionId, cwd, source, origin,
                textOrNull(envelope, EventIdentity.IDENTITY), envelope.path("received_at").asString(), receivedAt,
                parseTime(timestamp), payload);
    }

    /**
     * The event row of a hook event, however its line was read: the one place its dedupe key, id, time and project
     * are decided. {@code identity}: the identity a rebuilt event names, or null; {@code eventTime}: the event's own
     * time, or null.
     */
    static IngestRecord.Event event(SpoolLine line, ProjectResolver projects, String eventType, String sessionId,
            String cwd, String source, String origin, String identity, String receivedAtText,
            LocalDateTime receivedAt, LocalDateTime eventTime, String payload) {
        String dedupeKey = identity != null ? EventIdentity.identityKey(eventType, identity)
                : EventIdentity.dedupeKey(eventType, sessionId,
                        EventIdentity.moment(eventTime, origin, receivedAtText), payload);
        return new IngestRecord.Event(EventIdentity.eventId(dedupeKey), dedupeKey,
                eventTime != null ? eventTime : receivedAt, receivedAt, eventType, sessionId, projects.projectOf(cwd),
                cwd, source, payload, sha256(payload), line.file(), line.lineNumber());
    }

    /** A line the hook wrote about itself rather than a hook event; today only injection records. */
    private IngestRecord record(SpoolLine line, JsonNode envelope) {
        JsonNode kind = envelope.get(InjectionLine.RECORD_KEY);
        if (!kind.isString() || !InjectionLine.RECORD.equals(kind.asString())) {
            String name = kind.isString() ? kind.asString() : kind.toString();
            return reject(line, "unknown spool record '" + shorten(name) + "'", null);
        }
        LocalDateTime injectedAt = parseTime(textOrNull(envelope.path(InjectionLine.RECORD), "injected_at"));
        try {
            Injection injection = InjectionLine.read(line.text());
            return new IngestRecord.Injected(injection.injectionId(), injection, line.file(), line.lineNumber());
        } catch (IllegalArgumentException e) {
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

    private static String textOrNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.asString() : null;
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
