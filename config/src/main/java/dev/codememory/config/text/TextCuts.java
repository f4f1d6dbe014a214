package dev.codememory.config.text;

import dev.codememory.config.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts source texts into pieces that stay exact substrings of them: sentences, bounded
 * excerpts, first lines. Every cut lands between UTF-16 code units that do not form a
 * surrogate pair.
 */
public final class TextCuts {

    /** Excerpts are at least this long when the source allows it. */
    public static final int EXCERPT_MIN = 30;

    /** Excerpts are at most this long. */
    public static final int EXCERPT_MAX = 300;

    public static final String ELLIPSIS = "…";

    private static final String SENTENCE_ENDS = ".!?。！？";

    private static final Set<String> ABBREVIATIONS = Set.of("e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "dr", "no");

    /**
     * Markdown list, quote and heading markers (and a task-list checkbox) at the start of
     * a line.
     */
    private static final Pattern LINE_MARKERS = Pattern
        .compile("^[ \\t]*(?:(?:[-*+•>]|\\d{1,3}[.)]|#{1,6})[ \\t]+(?:\\[[ xX]][ \\t]+)?)*");

    private TextCuts() {
    }

    /**
     * The sentences of a prose text, each trimmed and an exact substring of it. Lines
     * inside fenced code blocks are skipped; markdown list, quote and heading markers are
     * left out; a sentence ends at a line break or at {@code . ! ? 。 ！ ？} followed by
     * whitespace (not after {@code e.g.}, {@code etc.}, a single Latin letter and the
     * like).
     */
    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        char fence = 0;
        int lineStart = 0;
        while (true) {
            int nl = text.indexOf('\n', lineStart);
            int lineEnd = nl < 0 ? text.length() : nl;
            String line = text.substring(lineStart, lineEnd);
            String stripped = line.strip();
            if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
                char c = stripped.charAt(0);
                if (fence == 0) {
                    fence = c;
                }
                else if (fence == c) {
                    fence = 0;
                }
            }
            else if (fence == 0) {
                Matcher m = LINE_MARKERS.matcher(line);
                int from = lineStart + (m.lookingAt() ? m.end() : 0);
                splitLine(text, from, lineEnd, out);
            }
            if (nl < 0) {
                return out;
            }
            lineStart = nl + 1;
        }
    }

    private static void splitLine(String text, int from, int to, List<String> out) {
        int start = from;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (SENTENCE_ENDS.indexOf(c) < 0) {
                continue;
            }
            boolean atEnd = i + 1 >= to || Character.isWhitespace(text.charAt(i + 1));
            if (!atEnd || c == '.' && isAbbreviation(text, start, i)) {
                continue;
            }
            addTrimmed(text, start, i + 1, out);
            start = i + 1;
        }
        addTrimmed(text, start, to, out);
    }

    private static boolean isAbbreviation(String text, int lineFrom, int dot) {
        int w = dot;
        while (w > lineFrom && !Character.isWhitespace(text.charAt(w - 1))) {
            w--;
        }
        String word = text.substring(w, dot);
        if (word.length() == 1 && (word.charAt(0) | 0x20) >= 'a' && (word.charAt(0) | 0x20) <= 'z') {
            return true;
        }
        return ABBREVIATIONS.contains(word.toLowerCase(java.util.Locale.ROOT));
    }

    private static void addTrimmed(String text, int from, int to, List<String> out) {
        int s = from;
        int e = to;
        while (s < e && Character.isWhitespace(text.charAt(s))) {
            s++;
        }
        while (e > s && Character.isWhitespace(text.charAt(e - 1))) {
            e--;
        }
        if (e > s) {
            out.add(text.substring(s, e));
        }
    }

    /**
     * An exact substring of {@code source} that can serve as a quote, or null when the
     * source is blank or null. Leading and trailing whitespace are left out. A source of
     * at most {@value #EXCERPT_MAX} characters is quoted whole (so it can be shorter than
     * {@value #EXCERPT_MIN}); a longer one is cut at the first line break or sentence end
     * that leaves {@value #EXCERPT_MIN}..{@value #EXCERPT_MAX} characters, else at the
     * last whitespace within {@value #EXCERPT_MAX}, else hard at {@value #EXCERPT_MAX}
     * (one less when that would split a surrogate pair).
     * @param jsonText when true the source is JSON text, and an escaped line break
     * ({@code \n}) also counts as a line break
     */
    public static String excerpt(String source, boolean jsonText) {
        if (source == null) {
            return null;
        }
        int n = source.length();
        int start = 0;
        while (start < n && Character.isWhitespace(source.charAt(start))) {
            start++;
        }
        if (start == n) {
            return null;
        }
        int end = n;
        while (Character.isWhitespace(source.charAt(end - 1))) {
            end--;
        }
        if (end - start <= EXCERPT_MAX) {
            return source.substring(start, end);
        }
        int limit = start + EXCERPT_MAX;
        for (int i = start + 1; i <= limit; i++) {
            int cut = boundaryAt(source, i, jsonText);
            if (cut < 0) {
                continue;
            }
            int trimmed = trimEnd(source, start, cut);
            if (trimmed - start >= EXCERPT_MIN && trimmed - start <= EXCERPT_MAX) {
                return source.substring(start, trimmed);
            }
        }
        for (int i = limit; i > start + EXCERPT_MIN; i--) {
            if (Character.isWhitespace(source.charAt(i))) {
                int trimmed = trimEnd(source, start, i);
                if (trimmed - start >= EXCERPT_MIN) {
                    return source.substring(start, trimmed);
                }
            }
        }
        int cut = limit;
        if (Character.isLowSurrogate(source.charAt(cut)) && Character.isHighSurrogate(source.charAt(cut - 1))) {
            cut--;
        }
        return source.substring(start, cut);
    }

    /**
     * The line of {@code source} that starts at {@code from}, trimmed, or null when
     * blank. A line ends at a line break; in JSON text also at an escaped {@code \n} or
     * at an unescaped {@code "} (the end of a string value).
     */
    public static String line(String source, int from, boolean jsonText) {
        int end = from;
        int n = source.length();
        while (end < n) {
            char c = source.charAt(end);
            if (c == '\n' || c == '\r' || jsonText && c == '"' && !escaped(source, end)
                    || jsonText && c == '\\' && end + 1 < n && source.charAt(end + 1) == 'n' && !escaped(source, end)) {
                break;
            }
            end++;
        }
        int start = from;
        while (start < end && Character.isWhitespace(source.charAt(start))) {
            start++;
        }
        int trimmed = trimEnd(source, start, end);
        return trimmed > start ? source.substring(start, trimmed) : null;
    }

    /**
     * The end index of a piece that ends at {@code i}, or -1 when {@code i} is no
     * boundary.
     */
    private static int boundaryAt(String s, int i, boolean jsonText) {
        char c = s.charAt(i);
        if (c == '\n' || c == '\r') {
            return i;
        }
        if (jsonText && c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 'n' && !escaped(s, i)) {
            return i;
        }
        char prev = s.charAt(i - 1);
        if (SENTENCE_ENDS.indexOf(prev) >= 0 && Character.isWhitespace(c)) {
            return i;
        }
        return -1;
    }

    /**
     * True when the backslash at {@code i} is itself escaped (preceded by an odd run of
     * backslashes).
     */
    private static boolean escaped(String s, int i) {
        int run = 0;
        for (int k = i - 1; k >= 0 && s.charAt(k) == '\\'; k--) {
            run++;
        }
        return run % 2 == 1;
    }

    private static int trimEnd(String s, int start, int end) {
        int e = end;
        while (e > start && Character.isWhitespace(s.charAt(e - 1))) {
            e--;
        }
        return e;
    }

    /** The first non-blank line, stripped; empty when there is none. */
    public static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        for (String line : text.split("\\R", -1)) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return "";
    }

    /**
     * {@code text} when it has at most {@code max} characters; else its head followed by
     * {@code …}, at most {@code max} characters in all. The head ends at a word boundary
     * — the last whitespace that keeps at least half of the allowed length — or, for text
     * without such a boundary (one long word, a hash, a path), is cut hard, never inside
     * a surrogate pair. Trailing whitespace of the head is dropped.
     */
    public static String shorten(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        if (max < 1) {
            return "";
        }
        int limit = max - ELLIPSIS.length();
        int cut = -1;
        for (int i = limit; i > 0 && i >= limit / 2; i--) {
            if (Character.isWhitespace(text.charAt(i))) {
                cut = i;
                break;
            }
        }
        if (cut < 0) {
            cut = limit;
            if (cut > 0 && Character.isHighSurrogate(text.charAt(cut - 1))) {
                cut--;
            }
        }
        return text.substring(0, cut).stripTrailing() + ELLIPSIS;
    }

    /**
     * Whitespace as a regular expression's {@code \s} reads it: space, tab, line feed,
     * vertical tab, form feed, carriage return.
     */
    public static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * {@code text} as it appears inside a JSON string literal (the escapes Jackson writes
     * by default).
     */
    public static String jsonEscape(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        Json.appendJacksonEscaped(text, sb);
        return sb.toString();
    }

}
