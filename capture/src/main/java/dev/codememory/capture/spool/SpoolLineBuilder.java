package dev.codememory.capture.spool;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import dev.codememory.config.text.IsoInstant;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what a hook received on stdin into the one line the spool keeps: privacy first
 * (every string redacted by {@link Redactor}, values under secret-named keys masked, and
 * every value of a credential file masked when the event reads or writes one), every
 * string capped at a size with a marker that records the original size, then wrapped in
 * an envelope with the time of receipt. Input that is not valid JSON or not valid UTF-8
 * is kept too, redacted and flagged with the reason, so ingest can reject it visibly.
 *
 * <p>
 * Envelope:
 * {@code {"spool":1,"received_at":…,"source":"hook|import|transcript","origin"?:…,"identity"?:…,"event":{…},
 * "truncated"?:[{"path","original_bytes"}]}} or, for bad input,
 * {@code {…,"error":reason,"raw":text, "raw_bytes":n}}. JDK only: this runs in the hook
 * process.
 */
public final class SpoolLineBuilder {

    public static final int DEFAULT_MAX_FIELD_BYTES = 2 * 1024 * 1024;

    public static final int FORMAT_VERSION = 1;

    /**
     * Commands that print a file: with a credential file among their arguments, their
     * output is that file.
     */
    private static final Set<String> FILE_PRINTERS = Set.of("cat", "head", "tail", "less", "more", "bat", "type",
            "grep", "rg", "sed", "awk", "nl", "strings", "xxd", "Get-Content", "gc");

    /** What separates the words of a shell command: blanks and {@code | ; & < > ( )}. */
    private static final String COMMAND_BREAKS = " \t\n\u000B\f\r|;&<>()";

    private final Redactor redactor;

    private final int maxFieldBytes;

    public SpoolLineBuilder(Redactor redactor, int maxFieldBytes) {
        if (maxFieldBytes < 1024) {
            throw new IllegalArgumentException("max field bytes must be at least 1024, was " + maxFieldBytes);
        }
        this.redactor = redactor;
        this.maxFieldBytes = maxFieldBytes;
    }

    /**
     * The spool line, and the reason the input was flagged as bad (null when it was a
     * good hook object).
     */
    public record Line(String json, String flaggedReason) {

        public boolean flagged() {
            return flaggedReason != null;
        }

        /**
         * The {@code event_id} the ingest step will give this line's event, or null when
         * ingest will reject the line (flagged input, unknown hook event). Computed on
         * demand: hashing costs the hook time it only spends when something, like an
         * injection record, needs to name the event.
         */
        public String eventId() {
            return flagged() ? null : EventIdentity.eventIdOf(json);
        }
    }

    public static SpoolLineBuilder defaults() {
        return new SpoolLineBuilder(Redactor.defaults(), DEFAULT_MAX_FIELD_BYTES);
    }

    /**
     * Builds the spool line for raw stdin bytes. Never throws for bad input: it is
     * flagged instead.
     */
    public Line build(byte[] input, Instant receivedAt, String source, String origin) {
        Map<String, Object> envelope = envelope(receivedAt, source, origin);
        // Decoding replaces each malformed sequence by U+FFFD: without one in the result
        // the input was valid UTF-8.
        // (A strict decoder says the same, but on a fresh JVM it costs ten times as much
        // on a long input.)
        String text = new String(input, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0 && !isValidUtf8(input)) {
            return flagged(envelope, "input is not valid UTF-8", text, input.length);
        }
        return build(text, input.length, envelope);
    }

    /**
     * The spool line for input the hook rejects before reading it as an event (stdin that
     * never closed, so no whole event was received): kept like bad input, redacted and
     * flagged with {@code reason}.
     */
    public Line rejected(byte[] input, Instant receivedAt, String source, String origin, String reason) {
        return flagged(envelope(receivedAt, source, origin), reason, new String(input, StandardCharsets.UTF_8),
                input.length);
    }

    private static boolean isValidUtf8(byte[] input) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(input));
            return true;
        }
        catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * Builds the spool line for one already-decoded hook JSON text (import reads files as
     * text).
     */
    public Line build(String text, Instant receivedAt, String source, String origin) {
        return build(text, -1, envelope(receivedAt, source, origin));
    }

    /**
     * As {@link #build(String, Instant, String, String)}, for an event that names its own
     * identity (one rebuilt from a transcript record): ingest keys it by that identity
     * instead of its time and payload.
     */
    public Line build(String text, Instant receivedAt, String source, String origin, String identity) {
        Map<String, Object> envelope = envelope(receivedAt, source, origin);
        envelope.put(EventIdentity.IDENTITY, identity);
        return build(text, -1, envelope);
    }

    /**
     * {@code rawBytes} is the input's size in bytes, or -1 to count the UTF-8 bytes of
     * {@code text} if needed.
     */
    private Line build(String text, int rawBytes, Map<String, Object> envelope) {
        if (text.isBlank()) {
            return flagged(envelope, "empty input", text, rawBytes);
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        }
        catch (JsonParseException e) {
            return flagged(envelope, "invalid JSON: " + e.getMessage(), text, rawBytes);
        }
        if (!(parsed instanceof Map<?, ?>)) {
            return flagged(envelope, "hook input is not a JSON object", text, rawBytes);
        }
        List<Map<String, Object>> truncated = new ArrayList<>();
        Object clean = sanitizeEvent((Map<?, ?>) parsed, truncated);
        envelope.put("event", clean);
        if (!truncated.isEmpty()) {
            envelope.put("truncated", truncated);
        }
        return new Line(Json.write(envelope), null);
    }

    private static Map<String, Object> envelope(Instant receivedAt, String source, String origin) {
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("spool", FORMAT_VERSION);
        envelope.put("received_at", IsoInstant.format(receivedAt));
        envelope.put("source", source);
        if (origin != null) {
            envelope.put("origin", origin);
        }
        return envelope;
    }

    private Line flagged(Map<String, Object> envelope, String reason, String raw, int rawBytes) {
        envelope.put("error", reason);
        envelope.put("raw", cap(redactor.redact(raw), "raw", null));
        envelope.put("raw_bytes", rawBytes >= 0 ? rawBytes : raw.getBytes(StandardCharsets.UTF_8).length);
        return new Line(Json.write(envelope), reason);
    }

    /**
     * The event with every string redacted. When the tool call reads or writes a
     * credential file (a Read, Write or Edit of {@code .env}, {@code ~/.aws/credentials},
     * …, or a command such as {@code cat .env}), every value in its {@code tool_input}
     * and {@code tool_response} text is masked, whatever its key is called.
     */
    private Object sanitizeEvent(Map<?, ?> event, List<Map<String, Object>> truncated) {
        boolean credentialFile = touchesCredentialFile(event);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : event.entrySet()) {
            String key = String.valueOf(e.getKey());
            boolean toolText = key.equals("tool_input") || key.equals("tool_response");
            out.put(key, sanitize(e.getValue(), key, isSecretKey(key), credentialFile && toolText, truncated));
        }
        return out;
    }

    static boolean touchesCredentialFile(Map<?, ?> event) {
        if (!(event.get("tool_input") instanceof Map<?, ?> input)) {
            return false;
        }
        for (String field : new String[] { "file_path", "path", "notebook_path" }) {
            if (input.get(field) instanceof String path && Redactor.isCredentialFile(path)) {
                return true;
            }
        }
        if (input.get("command") instanceof String command) {
            boolean printer = false;
            boolean file = false;
            int n = command.length();
            int start = 0;
            for (int i = 0; i <= n; i++) { // words between blanks and | ; & < > ( ),
                                           // without the regex engine
                if (i < n && COMMAND_BREAKS.indexOf(command.charAt(i)) < 0) {
                    continue;
                }
                if (i > start) {
                    String w = command.substring(start, i).replace("\"", "").replace("'", "");
                    printer |= FILE_PRINTERS.contains(w);
                    file |= Redactor.isCredentialFile(w);
                }
                start = i + 1;
            }
            return printer && file;
        }
        return false;
    }

    private Object sanitize(Object value, String path, boolean secretKey, boolean credentialFile,
            List<Map<String, Object>> truncated) {
        if (value instanceof String s) {
            if (secretKey && !s.isEmpty()) {
                return Redactor.SECRET_MARKER;
            }
            return cap(credentialFile ? redactor.redactCredentialFile(s) : redactor.redact(s), path, truncated);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                String childPath = path.isEmpty() ? key : path + "." + key;
                out.put(key,
                        sanitize(e.getValue(), childPath, secretKey || isSecretKey(key), credentialFile, truncated));
            }
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                out.add(sanitize(list.get(i), path + "[" + i + "]", secretKey, credentialFile, truncated));
            }
            return out;
        }
        return value;
    }

    /**
     * Whether the values under a JSON key are secrets: the redactor's own reading of key
     * names.
     */
    static boolean isSecretKey(String key) {
        return key.length() <= 64 && Redactor.isSecretName(key);
    }

    /**
     * Keeps at most {@code maxFieldBytes} UTF-8 bytes of a string and says how large it
     * was.
     */
    private String cap(String s, String path, List<Map<String, Object>> truncated) {
        // a char is at most 3 UTF-8 bytes (surrogate pairs: 4 bytes for 2 chars), so
        // short strings need no count
        if ((long) s.length() * 3 <= maxFieldBytes) {
            return s;
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= maxFieldBytes) {
            return s;
        }
        int end = maxFieldBytes;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--; // do not cut a multi-byte character
        }
        if (truncated != null) {
            Map<String, Object> note = new LinkedHashMap<>();
            note.put("path", path);
            note.put("original_bytes", bytes.length);
            truncated.add(note);
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8) + "\n[TRUNCATED: kept " + end + " of " + bytes.length
                + " bytes]";
    }

}
