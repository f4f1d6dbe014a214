package dev.codememory.processors.ingest;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.config.injection.InjectionLine;
import java.util.Arrays;

/**
 * The fields ingest needs from a spool line whose JSON is plain, and its event object as
 * the text {@link EventIdentity#payload} would write for it (the form Jackson's default
 * writer uses, which is why Jackson is named below), which for such a line is the line's
 * own text: so ingest hashes that text instead of building a tree and writing it again.
 *
 * <p>
 * Plain means strict JSON (RFC 8259) with: no {@code \\u} escape but those of control
 * characters without a short escape, U+007F, U+2028 and U+2029 (the ones the hook's own
 * writer uses; a lone surrogate, or a character Jackson writes differently, cannot hide
 * behind one); no backslash in any key (so equal keys are equal text); no key twice in
 * one object (Jackson keeps the last value); integers only (no fraction, no exponent, no
 * {@code -0}: Jackson writes other numbers as {@link java.math.BigDecimal} does); at most
 * {@value #MAX_DEPTH} levels and {@value #MAX_KEYS} keys per object. Inside the event
 * object, also no whitespace between tokens and no {@code \/}. Jackson then writes
 * exactly what it read (keys in their order, integers as read, strings with
 * {@code \" \\ \b \f
 * \n \r \t} escaped and every other character as it is) except for those {@code \\u}
 * escapes, which {@link #jacksonText} rewrites as Jackson writes them.
 *
 * <p>
 * {@link #read} returns null for any other line, and for lines that need more than the
 * fields read here (a record, a flagged line, a field of an unexpected type): those take
 * the full path.
 */
final class PlainEventLine {

    static final int MAX_DEPTH = 64;
    static final int MAX_KEYS = 64;

    /** Marks a captured field whose value is not a string. */
    private static final String NOT_A_STRING = new String("not a string");

    private static final int NONE = 0;

    private static final int RECEIVED_AT = 1;

    private static final int SOURCE = 2;

    private static final int ORIGIN = 3;

    private static final int IDENTITY = 4;

    private static final int EVENT = 5;

    private static final int OTHER_ENVELOPE_FIELD = 6; // "record" or "error": not an
                                                       // event

    private static final int HOOK_EVENT_NAME = 7;

    private static final int SESSION_ID = 8;

    private static final int CWD = 9;

    private static final int TIMESTAMP = 10;

    /**
     * What the line says, strings decoded; null where the line has no such field or a
     * value of another type. {@code payload} is the text of the event object.
     */
    record Fields(String receivedAt, String source, String origin, String identity, String hookEventName,
            String sessionId, String cwd, String timestamp, String payload) {
    }

    private final String text;

    private final int length;

    private int pos;

    private final String[] captured = new String[TIMESTAMP + 1];

    private boolean eventSeen;

    private boolean notAnEvent;

    private int eventStart;

    private int eventEnd;

    /** Reading the event object, whose text must be the payload as Jackson writes it. */
    private boolean inEvent;

    private boolean eventVerbatim = true;

    /** The event text has escapes Jackson writes otherwise ({@link #rewritable}). */
    private boolean eventRewritten;

    /** Start and end of each key of the objects being read, innermost last. */
    private int[] keySpans = new int[64];

    private int keyCount;

    private PlainEventLine(String text) {
        this.text = text;
        this.length = text.length();
    }

    /** The fields of a plain hook-event line (see the class comment), or null. */
    static Fields read(String line) {
        PlainEventLine scan = new PlainEventLine(line);
        scan.skipWhitespace();
        if (scan.pos >= scan.length || line.charAt(scan.pos) != '{' || !scan.object(1, true, false)) {
            return null;
        }
        scan.skipWhitespace();
        if (scan.pos != scan.length || scan.notAnEvent || !scan.eventSeen || !scan.eventVerbatim) {
            return null;
        }
        String[] c = scan.captured;
        for (int field : new int[] { RECEIVED_AT, SOURCE, ORIGIN, IDENTITY, HOOK_EVENT_NAME }) {
            if (c[field] == NOT_A_STRING) {
                return null;
            }
        }
        if (c[RECEIVED_AT] == null || c[HOOK_EVENT_NAME] == null) {
            return null;
        }
        return new Fields(c[RECEIVED_AT], c[SOURCE], c[ORIGIN], c[IDENTITY], c[HOOK_EVENT_NAME],
                stringOrNull(c[SESSION_ID]), stringOrNull(c[CWD]), stringOrNull(c[TIMESTAMP]),
                scan.eventRewritten ? jacksonText(line.substring(scan.eventStart, scan.eventEnd))
                        : line.substring(scan.eventStart, scan.eventEnd));
    }

    private static String stringOrNull(String value) {
        return value == NOT_A_STRING ? null : value;
    }

    /**
     * At '{'. {@code envelope}: the line's top object; {@code event}: the object under
     * its "event" key.
     */
    private boolean object(int depth, boolean envelope, boolean event) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        pos++; // '{'
        int firstKey = keyCount;
        try {
            skipWhitespace();
            if (pos < length && text.charAt(pos) == '}') {
                pos++;
                return true;
            }
            while (true) {
                if (pos >= length || text.charAt(pos) != '"') {
                    return false;
                }
                int keyStart = pos + 1;
                int keyEnd = plainKeyEnd(keyStart);
                if (keyEnd < 0 || keyCount - firstKey >= MAX_KEYS || repeats(firstKey, keyStart, keyEnd)) {
                    return false;
                }
                addKey(keyStart, keyEnd);
                pos = keyEnd + 1;
                skipWhitespace();
                if (pos >= length || text.charAt(pos) != ':') {
                    return false;
                }
                pos++;
                skipWhitespace();
                int field = envelope ? envelopeField(keyStart, keyEnd) : event ? eventField(keyStart, keyEnd) : NONE;
                if (!fieldValue(depth, field)) {
                    return false;
                }
                int next = afterMember('}');
                if (next != 0) {
                    return next > 0;
                }
            }
        }
        finally {
            keyCount = firstKey;
        }
    }

    private boolean fieldValue(int depth, int field) {
        if (pos >= length) {
            return false;
        }
        char c = text.charAt(pos);
        if (field == OTHER_ENVELOPE_FIELD) {
            notAnEvent = true;
        }
        if (field == EVENT) {
            eventSeen = true;
            if (c != '{') {
                notAnEvent = true;
                return value(depth);
            }
            eventStart = pos;
            inEvent = true;
            boolean read = object(depth + 1, false, true);
            inEvent = false;
            eventEnd = pos;
            return read;
        }
        if (field != NONE && field != OTHER_ENVELOPE_FIELD) {
            if (c == '"') {
                int start = pos + 1;
                int end = stringEnd(start);
                if (end < 0) {
                    return false;
                }
                if (text.lastIndexOf("\\u", end) >= start) {
                    return false; // a field ingest reads, spelled with \\u escapes: the
                                  // full path decodes those
                }
                captured[field] = decode(start, end);
                pos = end + 1;
                return true;
            }
            captured[field] = NOT_A_STRING;
        }
        return value(depth);
    }

    private boolean value(int depth) {
        if (pos >= length) {
            return false;
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object(depth + 1, false, false);
            case '[':
                return array(depth + 1);
            case '"': {
                int end = stringEnd(pos + 1);
                if (end < 0) {
                    return false;
                }
                pos = end + 1;
                return true;
            }
            case 't':
                return literal("true");
            case 'f':
                return literal("false");
            case 'n':
                return literal("null");
            default:
                return integer();
        }
    }

    private boolean array(int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        pos++; // '['
        skipWhitespace();
        if (pos < length && text.charAt(pos) == ']') {
            pos++;
            return true;
        }
        while (true) {
            if (!value(depth)) {
                return false;
            }
            int next = afterMember(']');
            if (next != 0) {
                return next > 0;
            }
        }
    }

    /**
     * After a member of a container: 1 when {@code close} ends it, 0 after a comma (and
     * blanks), -1 otherwise.
     */
    private int afterMember(char close) {
        skipWhitespace();
        if (pos >= length) {
            return -1;
        }
        char c = text.charAt(pos++);
        if (c == close) {
            return 1;
        }
        if (c != ',') {
            return -1;
        }
        skipWhitespace();
        return 0;
    }

    /**
     * An integer as JSON writes it, not {@code -0}, and not followed by a fraction or an
     * exponent.
     */
    private boolean integer() {
        int start = pos;
        if (pos < length && text.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < length && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        int count = pos - digits;
        if (count == 0 || (count > 1 && text.charAt(digits) == '0')) {
            return false;
        }
        if (count == 1 && text.charAt(digits) == '0' && digits > start) {
            return false; // -0: Jackson reads it as 0
        }
        if (pos < length) {
            char next = text.charAt(pos);
            return next != '.' && next != 'e' && next != 'E';
        }
        return true;
    }

    private boolean literal(String word) {
        if (!text.startsWith(word, pos)) {
            return false;
        }
        pos += word.length();
        return true;
    }

    /**
     * The index of the closing quote of a string whose content starts at {@code from}, or
     * -1 when the string is not plain: a {@code \\u} escape other than those
     * {@link #jacksonText} rewrites, an escape JSON does not know, a raw control
     * character, no closing quote.
     */
    private int stringEnd(int from) {
        for (int i = from; i < length; i++) {
            char c = text.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                if (++i >= length) {
                    return -1;
                }
                switch (text.charAt(i)) {
                    case '"', '\\', 'b', 'f', 'n', 'r', 't' -> {
                    }
                    case '/' -> eventVerbatim &= !inEvent; // Jackson writes a plain '/'
                    case 'u' -> {
                        if (!rewritable(hex4(i + 1))) {
                            return -1;
                        }
                        eventRewritten |= inEvent;
                        i += 4;
                    }
                    default -> {
                        return -1;
                    }
                }
            }
            else if (c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    /**
     * A {@code \\u} escape of a character Jackson writes in a form of its own: a control
     * character without a short escape (as {@code \\u00XX}, upper-case hex), U+007F,
     * U+2028 or U+2029 (as the character itself). These are the escapes the hook's writer
     * uses, for ANSI colours in command output among others.
     */
    private static boolean rewritable(int c) {
        return (c >= 0 && c < 0x20 && c != '\b' && c != '\t' && c != '\n' && c != '\f' && c != '\r') || c == 0x7F
                || c == 0x2028 || c == 0x2029;
    }

    /** The value of the four hex digits at {@code at}, or -1. */
    private int hex4(int at) {
        if (at + 4 > length) {
            return -1;
        }
        int value = 0;
        for (int i = at; i < at + 4; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }

    /**
     * The event text with its {@link #rewritable} escapes written as Jackson writes them.
     */
    private static String jacksonText(String event) {
        StringBuilder out = new StringBuilder(event.length());
        for (int i = 0; i < event.length(); i++) {
            char c = event.charAt(i);
            if (c != '\\') {
                out.append(c);
            }
            else if (event.charAt(i + 1) != 'u') {
                out.append(c).append(event.charAt(++i)); // a short escape, kept
            }
            else {
                int value = Integer.parseInt(event, i + 2, i + 6, 16);
                if (value < 0x20) {
                    out.append("\\u00").append(UPPER_HEX[value >> 4]).append(UPPER_HEX[value & 0xF]);
                }
                else {
                    out.append((char) value);
                }
                i += 5;
            }
        }
        return out.toString();
    }

    private static final char[] UPPER_HEX = "0123456789ABCDEF".toCharArray();

    /** As {@link #stringEnd}, for a key: no escape at all. */
    private int plainKeyEnd(int from) {
        for (int i = from; i < length; i++) {
            char c = text.charAt(i);
            if (c == '"') {
                return i;
            }
            if (c == '\\' || c < 0x20) {
                return -1;
            }
        }
        return -1;
    }

    private String decode(int start, int end) {
        if (text.indexOf('\\', start) < 0 || text.indexOf('\\', start) >= end) {
            return text.substring(start, end);
        }
        StringBuilder out = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(++i);
            out.append(switch (e) {
                case 'b' -> '\b';
                case 'f' -> '\f';
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                default -> e; // '"', '\\' and '/'
            });
        }
        return out.toString();
    }

    private boolean repeats(int firstKey, int start, int end) {
        int len = end - start;
        for (int k = firstKey; k < keyCount; k++) {
            int otherStart = keySpans[2 * k];
            if (keySpans[2 * k + 1] - otherStart == len && text.regionMatches(otherStart, text, start, len)) {
                return true;
            }
        }
        return false;
    }

    private void addKey(int start, int end) {
        if (2 * keyCount + 2 > keySpans.length) {
            keySpans = Arrays.copyOf(keySpans, keySpans.length * 2);
        }
        keySpans[2 * keyCount] = start;
        keySpans[2 * keyCount + 1] = end;
        keyCount++;
    }

    private int envelopeField(int start, int end) {
        if (is("received_at", start, end)) {
            return RECEIVED_AT;
        }
        if (is("source", start, end)) {
            return SOURCE;
        }
        if (is("origin", start, end)) {
            return ORIGIN;
        }
        if (is(EventIdentity.IDENTITY, start, end)) {
            return IDENTITY;
        }
        if (is("event", start, end)) {
            return EVENT;
        }
        if (is(InjectionLine.RECORD_KEY, start, end) || is("error", start, end)) {
            return OTHER_ENVELOPE_FIELD;
        }
        return NONE;
    }

    private int eventField(int start, int end) {
        if (is("hook_event_name", start, end)) {
            return HOOK_EVENT_NAME;
        }
        if (is("session_id", start, end)) {
            return SESSION_ID;
        }
        if (is("cwd", start, end)) {
            return CWD;
        }
        if (is("timestamp", start, end)) {
            return TIMESTAMP;
        }
        return NONE;
    }

    private boolean is(String key, int start, int end) {
        return end - start == key.length() && text.startsWith(key, start);
    }

    private void skipWhitespace() {
        int start = pos;
        while (pos < length) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                break;
            }
            pos++;
        }
        if (pos > start && inEvent) {
            eventVerbatim = false; // Jackson writes no whitespace
        }
    }

}
