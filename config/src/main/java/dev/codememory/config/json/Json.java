package dev.codememory.config.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer on the JDK alone, for the hook path where start-up time
 * matters more than features. Objects become {@link LinkedHashMap} (key order kept),
 * arrays {@link ArrayList}, strings {@link String}, numbers {@link Number} kept as their
 * literal text ({@link JsonNumber}), booleans {@link Boolean} and null {@code null}.
 */
public final class Json {

    private static final char[] UPPER_HEX = "0123456789ABCDEF".toCharArray();

    private static final int MAX_DEPTH = 512;

    private final String text;

    /** {@link Latin1View} of the text: the long runs inside strings are scanned on it. */
    private final byte[] view;

    private int pos;

    private Json(String text) {
        this.text = text;
        this.view = Latin1View.of(text);
    }

    /**
     * A number kept as its literal text, so nothing is lost or reformatted on the way
     * through.
     */
    public record JsonNumber(String literal) {
    }

    /**
     * Parses one JSON value that must fill the whole text (surrounding whitespace
     * allowed).
     */
    public static Object parse(String text) {
        Json parser = new Json(text);
        parser.skipWhitespace();
        Object value = parser.readValue(0);
        parser.skipWhitespace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the JSON value");
        }
        return value;
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    /**
     * How strings and numbers are spelled when writing: this class's own style
     * ({@link #STYLE}), or another producer's that must be matched byte for byte
     * (ingest's, for event ids computed outside ingest).
     */
    public interface Style {

        void string(String s, StringBuilder out);

        /** The text written for a number read as {@code literal}. */
        String number(String literal);

    }

    /** Numbers as read, strings escaped by {@link #writeString}. */
    public static final Style STYLE = new Style() {
        @Override
        public void string(String s, StringBuilder out) {
            writeString(s, out);
        }

        @Override
        public String number(String literal) {
            return literal;
        }
    };

    public static void write(Object value, StringBuilder out) {
        write(value, out, STYLE);
    }

    /**
     * Writes maps, lists, strings, numbers, booleans and null; anything else as its
     * string form.
     */
    public static void write(Object value, StringBuilder out, Style style) {
        if (value == null) {
            out.append("null");
        }
        else if (value instanceof String s) {
            style.string(s, out);
        }
        else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                style.string(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out, style);
            }
            out.append('}');
        }
        else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out, style);
            }
            out.append(']');
        }
        else if (value instanceof JsonNumber n) {
            out.append(style.number(n.literal()));
        }
        else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        }
        else {
            style.string(value.toString(), out);
        }
    }

    /**
     * Appends JSON's two-character escape for {@code c} ({@code \" \\ \n \r \t \b \f})
     * and returns true, or appends nothing and returns false: the part of string escaping
     * every JSON writer here shares.
     */
    public static boolean appendShortEscape(char c, StringBuilder out) {
        String escape = switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            default -> null;
        };
        if (escape == null) {
            return false;
        }
        out.append(escape);
        return true;
    }

    /**
     * The character a short escape stands for ({@code \\n} → newline, with {@code e} the
     * character after the backslash: one of {@code " \\ / b f n r t}), or -1 for any
     * other.
     */
    public static int unescapeShort(char e) {
        return switch (e) {
            case '"', '\\', '/' -> e;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> -1;
        };
    }

    /**
     * Appends {@code s} escaped as Jackson's default writer escapes a string's content
     * (no quotes): the short forms, {@code \\u00XX} with upper-case hex for other control
     * characters, everything else as it is. Ingest stores and hashes payloads in this
     * form, and extraction quotes JSON text in it.
     */
    public static void appendJacksonEscaped(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (appendShortEscape(c, out)) {
                continue;
            }
            if (c < 0x20) {
                out.append("\\u00").append(UPPER_HEX[c >> 4]).append(UPPER_HEX[c & 0xF]);
            }
            else {
                out.append(c);
            }
        }
    }

    /**
     * Bytes of {@link Latin1View} that stand for a character written as it is;
     * {@code '?'} is looked at again.
     */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int b = 0; b < 256; b++) {
            PLAIN[b] = b >= 0x20 && b != '"' && b != '\\' && b != 0x7f && b != '?';
        }
    }

    public static void writeString(String s, StringBuilder out) {
        out.append('"');
        int n = s.length();
        byte[] view = Latin1View.of(s);
        int run = 0; // start of the characters not yet appended, all written as they are
        for (int i = nextToLookAt(view, 0); i < n; i = nextToLookAt(view, i + 1)) {
            char c = s.charAt(i);
            if (c == '?' || (c > 0xFF && c != 0x2028 && c != 0x2029 && !Character.isSurrogate(c))) {
                continue;
            }
            out.append(s, run, i);
            run = i + 1;
            if (appendShortEscape(c, out)) {
                continue;
            }
            if (c < 0x20 || c == 0x2028 || c == 0x2029 || c == 0x7f) {
                appendUnicodeEscape(c, out);
            }
            else if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    out.append(c).append(s.charAt(++i));
                    run = i + 1;
                }
                else {
                    out.append('\uFFFD');
                }
            }
            else {
                out.append('\uFFFD'); // a lone low surrogate
            }
        }
        out.append(s, run, n);
        out.append('"');
    }

    /**
     * The first index at or after {@code from} whose byte is not {@link #PLAIN}, or the
     * view's length. A loop of its own so that the JIT compiles this small method early
     * rather than the whole writer late.
     */
    private static int nextToLookAt(byte[] view, int from) {
        boolean[] plain = PLAIN;
        int i = from;
        while (i < view.length && plain[view[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    private static final char[] LOWER_HEX = "0123456789abcdef".toCharArray();

    /**
     * {@code \\u} and four lower-case hex digits, as {@code String.format("\\u%04x", c)}
     * writes it.
     */
    private static void appendUnicodeEscape(char c, StringBuilder out) {
        out.append('\\')
            .append('u')
            .append(LOWER_HEX[c >> 12])
            .append(LOWER_HEX[(c >> 8) & 0xF])
            .append(LOWER_HEX[(c >> 4) & 0xF])
            .append(LOWER_HEX[c & 0xF]);
    }

    private Object readValue(int depth) {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        if ((c == '{' || c == '[') && depth >= MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        return switch (c) {
            case '{' -> readObject(depth);
            case '[' -> readArray(depth);
            case '"' -> readString();
            case 't' -> readLiteral("true", Boolean.TRUE);
            case 'f' -> readLiteral("false", Boolean.FALSE);
            case 'n' -> readLiteral("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield readNumber();
                }
                throw error("unexpected character '" + printable(c) + "'");
            }
        };
    }

    private Map<String, Object> readObject(int depth) {
        pos++;
        Map<String, Object> map = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return map;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = readString();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            map.put(key, readValue(depth + 1));
            skipWhitespace();
            char c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> readArray(int depth) {
        pos++;
        List<Object> list = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        while (true) {
            skipWhitespace();
            list.add(readValue(depth + 1));
            skipWhitespace();
            char c = next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String readString() {
        pos++;
        int start = pos;
        StringBuilder sb = null;
        while (true) {
            pos = plainEnd(view, pos);
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                String s = sb == null ? text.substring(start, pos) : sb.append(text, start, pos).toString();
                pos++;
                return s;
            }
            if (c != '\\') {
                throw error("control character in string");
            }
            if (sb == null) {
                sb = new StringBuilder();
            }
            sb.append(text, start, pos);
            pos++;
            char e = next();
            int shortForm = unescapeShort(e);
            if (shortForm >= 0) {
                sb.append((char) shortForm);
                start = pos;
                continue;
            }
            switch (e) {
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    int code = 0;
                    for (int k = pos; k < pos + 4; k++) {
                        int digit = hexDigit(text.charAt(k));
                        if (digit < 0) {
                            throw error("bad \\u escape");
                        }
                        code = code * 16 + digit;
                    }
                    sb.append((char) code);
                    pos += 4;
                }
                default -> throw error("bad escape '\\" + printable(e) + "'");
            }
            start = pos;
        }
    }

    /**
     * The end of the run of characters at {@code from} that a string holds as they are
     * (not a quote, a backslash or a control character): the bulk of a long string. A
     * loop of its own so that the JIT compiles this small method early rather than the
     * whole parser late.
     */
    private static int plainEnd(byte[] view, int from) {
        int p = from;
        while (p < view.length) {
            int c = view[p];
            if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) {
                return p;
            }
            p++;
        }
        return p;
    }

    private JsonNumber readNumber() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (!digitAt(pos)) {
            throw error("bad number");
        }
        if (text.charAt(pos) == '0') {
            pos++;
        }
        else {
            while (digitAt(pos)) {
                pos++;
            }
        }
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            if (!digitAt(pos)) {
                throw error("bad number");
            }
            while (digitAt(pos)) {
                pos++;
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (!digitAt(pos)) {
                throw error("bad number");
            }
            while (digitAt(pos)) {
                pos++;
            }
        }
        return new JsonNumber(text.substring(start, pos));
    }

    private Object readLiteral(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected literal");
        }
        pos += word.length();
        return value;
    }

    /** ASCII hex only: Integer.parseInt would also take a sign and non-ASCII digits. */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private boolean digitAt(int i) {
        return i < text.length() && text.charAt(i) >= '0' && text.charAt(i) <= '9';
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        return text.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private JsonParseException error(String message) {
        return new JsonParseException(message + " at character " + pos);
    }

    private static String printable(char c) {
        return c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

}
