package dev.codememory.processors.shell;

import dev.codememory.config.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Lines of a tool's output text, which is either raw text or the compact JSON of a Bash
 * response ({@code {"stdout":"…","stderr":"…",…}}, line breaks escaped). Spans are
 * indices into the text as given, so a line is always an exact substring of it.
 *
 * <p>
 * In raw text a line ends at {@code \n} or {@code \r}. In JSON text it also ends at an
 * escaped {@code \n} or {@code \r} and at an unescaped {@code "} (the end of a string
 * value); escape pairs ({@code \\}, {@code \"}) are stepped over whole, so an escaped
 * backslash followed by {@code n} is no line break. Text is JSON text when its first
 * non-blank character is <code>{</code>; a value cut short (by a size cap) runs to the
 * end of the text.
 */
final class OutputText {

    private OutputText() {
    }

    static boolean isJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '{';
            }
        }
        return false;
    }

    /**
     * The lines of {@code text[from, to)} as {@code [start, end)} spans, untrimmed, blank
     * ones included.
     */
    static List<int[]> lines(String text, int from, int to, boolean json) {
        List<int[]> out = new ArrayList<>();
        int start = from;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            int breakLength = 0;
            if (c == '\n' || c == '\r' || json && c == '"') {
                breakLength = 1;
            }
            else if (json && c == '\\' && i + 1 < to) {
                char d = text.charAt(i + 1);
                if (d == 'n' || d == 'r') {
                    breakLength = 2;
                }
                else {
                    i += 2;
                    continue;
                }
            }
            if (breakLength > 0) {
                out.add(new int[] { start, i });
                i += breakLength;
                start = i;
            }
            else {
                i++;
            }
        }
        out.add(new int[] { start, to });
        return out;
    }

    /**
     * The span {@code [start, end)} of the string value of {@code key} in JSON text
     * (between its quotes), or null when the key is not there. A key inside another
     * string (its quotes escaped) is not taken.
     */
    static int[] stringValue(String json, String key) {
        String quoted = '"' + key + '"';
        int at = json.indexOf(quoted);
        while (at >= 0) {
            if (at == 0 || json.charAt(at - 1) != '\\') {
                int i = skipBlanks(json, at + quoted.length());
                if (i < json.length() && json.charAt(i) == ':') {
                    i = skipBlanks(json, i + 1);
                    if (i < json.length() && json.charAt(i) == '"') {
                        return new int[] { i + 1, stringEnd(json, i + 1) };
                    }
                }
            }
            at = json.indexOf(quoted, at + 1);
        }
        return null;
    }

    private static int skipBlanks(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int stringEnd(String json, int from) {
        int i = from;
        while (i < json.length()) {
            char c = json.charAt(i);
            if (c == '"') {
                return i;
            }
            i += c == '\\' ? 2 : 1;
        }
        return json.length();
    }

    /**
     * {@code text} with JSON string escapes decoded; a malformed escape is kept as
     * written.
     */
    static String unescape(String text) {
        if (text.indexOf('\\') < 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 >= text.length()) {
                sb.append(c);
                i++;
                continue;
            }
            char e = text.charAt(i + 1);
            int shortForm = Json.unescapeShort(e);
            if (shortForm >= 0) {
                sb.append((char) shortForm);
                i += 2;
                continue;
            }
            switch (e) {
                case 'u' -> {
                    if (i + 6 <= text.length() && isHex(text, i + 2, i + 6)) {
                        sb.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                        i += 6;
                        continue;
                    }
                    sb.append(c).append(e);
                }
                default -> sb.append(c).append(e);
            }
            i += 2;
        }
        return sb.toString();
    }

    private static boolean isHex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The lines of the whole text, each decoded from JSON when the text is JSON. */
    static List<String> decodedLines(String text) {
        boolean json = isJson(text);
        List<String> out = new ArrayList<>();
        for (int[] span : lines(text, 0, text.length(), json)) {
            String line = text.substring(span[0], span[1]);
            out.add(json ? unescape(line) : line);
        }
        return out;
    }

}
