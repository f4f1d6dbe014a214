package dev.codememory.capture.spool;

import dev.codememory.config.injection.InjectionLine;
import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The identity ingest gives a hook event, in one place for both sides of the spool:
 * ingest's {@code HookEventProcessor} assigns it, and the hook process computes the same
 * id for a line it has just appended ({@link #eventIdOf}), so a record written by the
 * hook (an injection) can name the event before it exists in DuckDB.
 *
 * <p>
 * {@code dedupe_key} = SHA-256 of the hook event name, the session, the event's moment
 * and the payload (the event object as ingest serializes it); {@code event_id} =
 * {@code "ev_"} + its first 32 hex digits. The moment is the hook line's
 * {@code timestamp} when given, else its origin for imported lines, else the time of
 * receipt. A spool line that names its own {@code identity} (an event rebuilt from a
 * Claude Code transcript: the record's uuid and what was made of it) is keyed by the
 * event name and that identity alone, so the same transcript record is one event however
 * often, from whichever file and under whichever session it is read again.
 *
 * <p>
 * JDK only: this runs in the hook process. {@link #payload} is the one writer of the text
 * an event id hashes, for the hook and for ingest (ingest's {@code HookEventProcessor}
 * parses with the hook's {@link Json} and writes with it). Its form is the one ingest has
 * stored since the first release, when Jackson wrote it: integers canonical, other
 * numbers as {@link BigDecimal#toString()}, only control characters escaped, upper-case
 * hex. Changing it would change every stored event id, and a re-import would then add its
 * history a second time.
 */
public final class EventIdentity {

    /**
     * The hook events Claude Code's hooks reference documents; others are rejected with
     * the name.
     */
    public static final Set<String> KNOWN_EVENTS = Set.of("SessionStart", "UserPromptSubmit", "UserPromptExpansion",
            "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Stop", "StopFailure", "SubagentStart",
            "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "Notification", "TaskCreated", "TaskCompleted",
            "InstructionsLoaded", "CwdChanged", "FileChanged", "WorktreeCreate", "WorktreeRemove", "MessageDisplay");

    /** How the stored payload spells strings and numbers (see the class comment). */
    private static final Json.Style INGEST_STYLE = new Json.Style() {
        @Override
        public void string(String s, StringBuilder out) {
            writeString(s, out);
        }

        @Override
        public String number(String literal) {
            return EventIdentity.number(literal);
        }
    };

    private EventIdentity() {
    }

    /**
     * The {@code event_id} ingest will give the hook event of this spool line (as
     * {@link dev.codememory.capture.spool.SpoolLineBuilder} writes it), or null when
     * ingest would not make it an event: a flagged line, a line without a valid
     * {@code received_at}, an unknown or missing hook event name, a record that is not a
     * hook event.
     */
    public static String eventIdOf(String spoolLine) {
        Object parsed;
        try {
            parsed = Json.parse(spoolLine);
        }
        catch (JsonParseException e) {
            return null;
        }
        return parsed instanceof Map<?, ?> envelope ? eventIdOf(envelope) : null;
    }

    /**
     * {@link #eventIdOf(String)} for a spool line already parsed by {@link Json#parse}.
     */
    public static String eventIdOf(Map<?, ?> envelope) {
        if (envelope.containsKey(InjectionLine.RECORD_KEY) || envelope.containsKey("error")) {
            return null;
        }
        String receivedAtText = envelope.get("received_at") instanceof String s ? s : null;
        if (parseTime(receivedAtText) == null || !(envelope.get("event") instanceof Map<?, ?> event)) {
            return null;
        }
        if (!(event.get("hook_event_name") instanceof String eventType) || !KNOWN_EVENTS.contains(eventType)) {
            return null;
        }
        if (envelope.get(IDENTITY) instanceof String identity) {
            return eventId(identityKey(eventType, identity));
        }
        String sessionId = event.get("session_id") instanceof String s ? s : null;
        LocalDateTime eventTime = parseTime(event.get("timestamp") instanceof String s ? s : null);
        String origin = envelope.get("origin") instanceof String s ? s : null;
        String payload;
        try {
            payload = payload(event);
        }
        catch (NumberFormatException | ArithmeticException e) {
            return null; // a number ingest cannot read either: the line becomes a reject
        }
        return eventId(dedupeKey(eventType, sessionId, moment(eventTime, origin, receivedAtText), payload));
    }

    /** The envelope key of a line's own identity (see the class comment). */
    public static final String IDENTITY = "identity";

    /**
     * The dedupe key of an event that names its own identity: neither its session nor its
     * payload count.
     */
    public static String identityKey(String eventType, String identity) {
        return sha256(eventType + '\u0000' + "identity:" + identity);
    }

    /** SHA-256 (hex) of what makes the event itself; {@code sessionId} may be null. */
    public static String dedupeKey(String eventType, String sessionId, String moment, String payload) {
        return sha256(
                eventType + '\u0000' + (sessionId == null ? "" : sessionId) + '\u0000' + moment + '\u0000' + payload);
    }

    public static String eventId(String dedupeKey) {
        return "ev_" + dedupeKey.substring(0, 32);
    }

    /**
     * What tells two otherwise equal events apart: the event time when the hook line had
     * one, else the origin (file and line) of an imported line, else the time of receipt
     * exactly as the envelope wrote it.
     */
    public static String moment(LocalDateTime eventTime, String origin, String receivedAtText) {
        return eventTime != null ? "ts:" + eventTime
                : origin != null ? "origin:" + origin : "received:" + receivedAtText;
    }

    /**
     * ISO-8601 with offset or 'Z' → UTC; a local date-time is taken as UTC. Null when
     * absent or unparseable.
     */
    public static LocalDateTime parseTime(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        LocalDateTime common = parseCommonTime(text);
        return common != null ? common : parseAnyTime(text);
    }

    /** {@link #parseTime} by {@code java.time}'s parsers alone. */
    public static LocalDateTime parseAnyTime(String text) {
        try {
            return LocalDateTime.ofInstant(Instant.parse(text), ZoneOffset.UTC);
        }
        catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            }
            catch (DateTimeParseException e2) {
                try {
                    return LocalDateTime.parse(text);
                }
                catch (DateTimeParseException e3) {
                    return null;
                }
            }
        }
    }

    /**
     * {@link #parseTime} for the form hooks and imports write,
     * {@code yyyy-MM-ddTHH:mm:ss[.f…](Z|±HH:MM)} with one to nine fraction digits,
     * without going through {@code java.time}'s parsers (ingest reads two per line); null
     * for anything else, which the parsers then decide.
     */
    public static LocalDateTime parseCommonTime(String t) {
        int n = t.length();
        if (n < 20 || n > 35 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
                || t.charAt(16) != ':') {
            return null;
        }
        int year = digits(t, 0, 4);
        int month = digits(t, 5, 2);
        int day = digits(t, 8, 2);
        int hour = digits(t, 11, 2);
        int minute = digits(t, 14, 2);
        int second = digits(t, 17, 2);
        if (year < 1 || month < 1 || month > 12 || day < 1
                || (day > 28 && day > YearMonth.of(year, month).lengthOfMonth()) || hour < 0 || hour > 23 || minute < 0
                || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int i = 19;
        int nano = 0;
        if (t.charAt(i) == '.') {
            int start = ++i;
            while (i < n && i - start < 9 && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
                nano = nano * 10 + (t.charAt(i) - '0');
                i++;
            }
            int count = i - start;
            if (count == 0) {
                return null;
            }
            for (int k = count; k < 9; k++) {
                nano *= 10;
            }
        }
        int offsetSeconds;
        if (i == n - 1 && t.charAt(i) == 'Z') {
            offsetSeconds = 0;
        }
        else if (i == n - 6 && (t.charAt(i) == '+' || t.charAt(i) == '-') && t.charAt(i + 3) == ':') {
            int offsetHours = digits(t, i + 1, 2);
            int offsetMinutes = digits(t, i + 4, 2);
            if (offsetHours < 0 || offsetHours > 17 || offsetMinutes < 0 || offsetMinutes > 59
                    || (offsetHours == 0 && offsetMinutes == 0 && t.charAt(i) == '-')) {
                return null;
            }
            offsetSeconds = (t.charAt(i) == '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
        }
        else {
            return null;
        }
        LocalDateTime local = LocalDateTime.of(year, month, day, hour, minute, second, nano);
        return offsetSeconds == 0 ? local : local.minusSeconds(offsetSeconds);
    }

    /** The value of {@code count} decimal digits at {@code from}, or -1. */
    private static int digits(String t, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * The event object (as {@link Json#parse} returns it) written the way ingest stores
     * and hashes it. Throws {@link NumberFormatException} for a number {@link BigDecimal}
     * cannot hold.
     */
    public static String payload(Object event) {
        StringBuilder out = new StringBuilder(256);
        Json.write(event, out, INGEST_STYLE);
        return out.toString();
    }

    /**
     * Integers are read as integers (so {@code -0} is {@code 0}), everything else as an
     * exact BigDecimal.
     */
    private static String number(String literal) {
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') {
                return new BigDecimal(literal).toString();
            }
        }
        return new BigInteger(literal).toString();
    }

    /**
     * A string as Jackson writes it: quoted, only '"', '\\' and control characters
     * escaped.
     */
    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        Json.appendJacksonEscaped(s, out);
        out.append('"');
    }

    public static String sha256(String s) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(s.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

}
