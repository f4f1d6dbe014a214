package dev.codememory.config.injection;

import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The spool line of an {@link Injection}, written by the hook and read by ingest. The
 * envelope is the hook event's ({@code "spool"} format version first) with a
 * {@code "record"} marker that tells ingest this line is not a hook event:
 *
 * <pre>{@code
 * {"spool":1,"record":"injection","injection":{"session_id":"s-1","prompt_event_id":"ev_…",
 *  "hook_event_name":"UserPromptSubmit","injected_at":"2025-06-01T10:15:30.123456Z","band":"high","chars":812,
 *  "items":[{"citation":"mem:a7Bc3x","memory_id":"…","rank":1,"score":0.93}]}}
 * }</pre>
 *
 * {@code session_id} and {@code prompt_event_id} are null when unknown. JDK only: the
 * hook writes it.
 */
public final class InjectionLine {

    /** The envelope key that marks a line as something other than a hook event. */
    public static final String RECORD_KEY = "record";

    public static final String RECORD = "injection";

    public static final int FORMAT_VERSION = 1;

    private InjectionLine() {
    }

    public static String write(Injection injection) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("session_id", injection.sessionId());
        body.put("prompt_event_id", injection.promptEventId());
        body.put("hook_event_name", injection.hookEventName());
        body.put("injected_at", injection.injectedAt().toString());
        body.put("band", injection.band());
        body.put("chars", injection.chars());
        List<Object> items = new ArrayList<>(injection.items().size());
        for (Injection.Item item : injection.items()) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("citation", item.citation());
            i.put("memory_id", item.memoryId());
            i.put("rank", item.rank());
            i.put("score", item.score());
            items.add(i);
        }
        body.put("items", items);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("spool", FORMAT_VERSION);
        envelope.put(RECORD_KEY, RECORD);
        envelope.put(RECORD, body);
        return Json.write(envelope);
    }

    /**
     * Reads an injection line. Throws {@link IllegalArgumentException} whose message
     * names what is wrong (never the line itself) when the line is not a well-formed
     * injection record.
     */
    public static Injection read(String line) {
        Object parsed;
        try {
            parsed = Json.parse(line);
        }
        catch (JsonParseException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage());
        }
        if (!(parsed instanceof Map<?, ?> envelope) || !RECORD.equals(envelope.get(RECORD_KEY))) {
            throw new IllegalArgumentException("not an injection record");
        }
        if (!(envelope.get(RECORD) instanceof Map<?, ?> body)) {
            throw new IllegalArgumentException("no \"injection\" object");
        }
        if (!(body.get("items") instanceof List<?> rawItems)) {
            throw new IllegalArgumentException("items is missing or not an array");
        }
        List<Injection.Item> items = new ArrayList<>(rawItems.size());
        for (Object raw : rawItems) {
            if (!(raw instanceof Map<?, ?> item)) {
                throw new IllegalArgumentException("an item is not an object");
            }
            items.add(new Injection.Item(optionalString(item, "citation"), optionalString(item, "memory_id"),
                    integer(item, "rank", "item rank"), score(item)));
        }
        return new Injection(optionalString(body, "session_id"), optionalString(body, "prompt_event_id"),
                optionalString(body, "hook_event_name"), time(body), optionalString(body, "band"),
                integer(body, "chars", "chars"), items);
    }

    /** Null when absent or JSON null; a non-string value is an error. */
    private static String optionalString(Map<?, ?> object, String key) {
        Object value = object.get(key);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IllegalArgumentException(key + " is not a string");
    }

    private static int integer(Map<?, ?> object, String key, String name) {
        if (object.get(key) instanceof Json.JsonNumber n) {
            try {
                return Integer.parseInt(n.literal());
            }
            catch (NumberFormatException e) {
                // falls through to the error below
            }
        }
        throw new IllegalArgumentException(name + " is missing or not an integer");
    }

    private static double score(Map<?, ?> item) {
        if (item.get("score") instanceof Json.JsonNumber n) {
            return Double.parseDouble(n.literal()); // a JSON number always parses; huge
                                                    // ones become infinite
        }
        throw new IllegalArgumentException("item score is missing or not a number");
    }

    private static Instant time(Map<?, ?> body) {
        if (body.get("injected_at") instanceof String text) {
            try {
                return Instant.parse(text);
            }
            catch (DateTimeParseException e) {
                try {
                    return OffsetDateTime.parse(text).toInstant();
                }
                catch (DateTimeParseException e2) {
                    // falls through to the error below
                }
            }
        }
        throw new IllegalArgumentException("injected_at is missing or not an ISO-8601 time with offset");
    }

}
