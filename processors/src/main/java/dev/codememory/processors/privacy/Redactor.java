package dev.codememory.processors.privacy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes user-marked private sections and well-known secret shapes from free text before it is stored.
 *
 * <p>JDK only on purpose: this class runs inside a Claude Code hook process that must start fast.
 * Instances are immutable and thread-safe; all patterns are compiled once.
 *
 * <p>Rules, in order:
 * <ol>
 *   <li>{@code <private>…</private>} sections (case-insensitive tag names, spaces allowed before {@code >}) become
 *       {@value #PRIVATE_MARKER}; empty or whitespace-only sections vanish; nesting redacts the whole outer block; an
 *       unclosed opener redacts to the end of the text; a stray closer stays literal. Tags inside closed fenced code
 *       blocks and inline code spans stay literal, but only while outside a private section.</li>
 *   <li>Secret shapes (API keys, AWS key ids, GitHub/Slack tokens, PEM private keys, bearer tokens and
 *       {@code password=…}-style assignments) become {@value #SECRET_MARKER}, everywhere, code blocks included.</li>
 * </ol>
 * Nothing else in the text is changed.
 */
public final class Redactor {

    public static final String PRIVATE_MARKER = "[PRIVATE]";
    public static final String SECRET_MARKER = "[REDACTED]";

    private static final String TAG_NAME = "private";
    private static final String OPEN_PREFIX = "<" + TAG_NAME;

    private static final Redactor DEFAULTS = new Redactor();

    private Redactor() {
    }

    /** The standard rule set. */
    public static Redactor defaults() {
        return DEFAULTS;
    }

    /**
     * Applies all rules.
     *
     * @return {@code null} for {@code null}; the same instance when nothing matched
     */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String result = redactPrivateSections(text);
        result = redactSecrets(result);
        return result;
    }

    /**
     * The secret patterns, compiled on first need: the hook is a short-lived process, and most events hold no
     * secret-looking text, so the cheap substring checks in {@link #redactSecrets(String)} usually spare it the
     * cost of compiling and running these at all.
     */
    private static final class Patterns {

        /** PEM private key block; an unclosed BEGIN runs to the end of the text. Bounded, no nested quantifiers. */
        private static final Pattern PEM_PRIVATE_KEY = Pattern.compile(
                "-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                        + "(?:.*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|.*+)",
                Pattern.DOTALL);

        /** Fixed-prefix token shapes, all replaced wholesale. Possessive runs keep matching linear. */
        private static final Pattern TOKEN_SHAPES = Pattern.compile(
                "(?<![A-Za-z0-9])(?:"
                        + "sk-[A-Za-z0-9_-]{20,}+"                                // OpenAI / Anthropic keys
                        + "|(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])"             // AWS access key ids
                        + "|gh[pousr]_[A-Za-z0-9]{30,}+"                          // GitHub tokens
                        + "|github_pat_[A-Za-z0-9_]{20,}+"                        // GitHub fine-grained PATs
                        + "|xox[abposr]-[A-Za-z0-9-]{10,}+"                       // Slack tokens
                        + ")");

        /** {@code Bearer <token>}; group 1 (the word and its spacing) is kept. */
        private static final Pattern BEARER = Pattern.compile(
                "(?<![A-Za-z0-9])(bearer[ \\t]+)[A-Za-z0-9._~+/=-]{8,}+",
                Pattern.CASE_INSENSITIVE);

        /**
         * Key, optional closing quote, separator and optional opening quote (group 1). The value itself is delimited by
         * hand in {@link #redactAssignments(String)}. Longer alternatives first.
         */
        private static final Pattern ASSIGNMENT = Pattern.compile(
                "(?<![A-Za-z0-9])"
                        + "(?:client_secret|access_token|refresh_token|auth_token|secret_key|private_key|access_key"
                        + "|api_key|api-key|apikey|password|passwd|pwd|secret|token)"
                        + "[\"']?[ \\t]*[:=][ \\t]*([\"']?)",
                Pattern.CASE_INSENSITIVE);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Rule A: <private> sections
    // ---------------------------------------------------------------------------------------------------------------

    private static String redactPrivateSections(String text) {
        if (!containsIgnoreCase(text, OPEN_PREFIX)) {
            return text;
        }
        return new PrivateScanner(text).run();
    }

    private static boolean containsIgnoreCase(String text, String needle) {
        int len = needle.length();
        char first = needle.charAt(0);
        int from = 0;
        while (true) {
            int idx = text.indexOf(first, from);
            if (idx < 0 || idx + len > text.length()) {
                return false;
            }
            if (text.regionMatches(true, idx, needle, 0, len)) {
                return true;
            }
            from = idx + 1;
        }
    }

    /** Single-use, single-threaded scanner over one text. */
    private static final class PrivateScanner {
        private final String text;
        private final int n;
        private StringBuilder out;
        private int emitted;

        // closing-fence candidates, built lazily on the first fence opener
        private FenceClosers backtickClosers;
        private FenceClosers tildeClosers;

        // backtick runs of the current line, built lazily on the first backtick of a line
        private int lineStart = -1;
        private int lineEnd = -1;
        private int[] runStarts = new int[0];
        private int[] runLens = new int[0];
        private int[] runNext = new int[0];
        private int runCount;

        PrivateScanner(String text) {
            this.text = text;
            this.n = text.length();
        }

        String run() {
            int i = 0;
            while (i < n) {
                if (i == 0 || text.charAt(i - 1) == '\n') {
                    int afterFence = closedFenceEnd(i);
                    if (afterFence >= 0) {
                        i = afterFence;
                        continue;
                    }
                }
                char c = text.charAt(i);
                if (c == '`') {
                    i = skipBacktickRun(i);
                } else if (c == '<') {
                    int openEnd = matchTag(i, false);
                    i = openEnd > 0 ? consumePrivate(i, openEnd) : i + 1;
                } else {
                    i++;
                }
            }
            if (out == null) {
                return text;
            }
            out.append(text, emitted, n);
            return out.toString();
        }

        /** Consumes a private section starting at {@code start}; returns the index to continue scanning from. */
        private int consumePrivate(int start, int openEnd) {
            int depth = 1;
            int j = openEnd;
            while (true) {
                int lt = text.indexOf('<', j);
                if (lt < 0) {
                    // unclosed: everything to the end is private
                    replace(start, n, PRIVATE_MARKER);
                    return n;
                }
                int e = matchTag(lt, false);
                if (e > 0) {
                    depth++;
                    j = e;
                    continue;
                }
                e = matchTag(lt, true);
                if (e > 0) {
                    depth--;
                    if (depth == 0) {
                        if (!isBlank(openEnd, lt)) {
                            replace(start, e, PRIVATE_MARKER);
                            return e;
                        }
                        replace(start, e, "");
                        if (e < n && text.charAt(e) == ' ' && out.length() > 0
                                && out.charAt(out.length() - 1) == ' ') {
                            emitted = e + 1; // collapse the double space the removal would leave
                            return e + 1;
                        }
                        return e;
                    }
                    j = e;
                    continue;
                }
                j = lt + 1;
            }
        }

        private void replace(int start, int end, String replacement) {
            if (out == null) {
                out = new StringBuilder(n);
            }
            out.append(text, emitted, start).append(replacement);
            emitted = end;
        }

        private boolean isBlank(int from, int to) {
            for (int k = from; k < to; k++) {
                if (!Character.isWhitespace(text.charAt(k))) {
                    return false;
                }
            }
            return true;
        }

        /** Returns the end index of an opening (or closing) tag at {@code i}, or -1. */
        private int matchTag(int i, boolean closing) {
            int p = i + 1;
            if (closing) {
                if (p >= n || text.charAt(p) != '/') {
                    return -1;
                }
                p++;
            }
            if (!text.regionMatches(true, p, TAG_NAME, 0, TAG_NAME.length())) {
                return -1;
            }
            p += TAG_NAME.length();
            while (p < n && (text.charAt(p) == ' ' || text.charAt(p) == '\t')) {
                p++;
            }
            return p < n && text.charAt(p) == '>' ? p + 1 : -1;
        }

        // ---- fenced code blocks ----

        /**
         * If a fence opener line starts at {@code i} and a matching closing fence exists, returns the index just
         * after the closing fence line; otherwise -1 (an unclosed fence protects nothing).
         */
        private int closedFenceEnd(int i) {
            int p = i;
            int indent = 0;
            while (p < n && indent < 3 && text.charAt(p) == ' ') {
                p++;
                indent++;
            }
            if (p >= n) {
                return -1;
            }
            char fence = text.charAt(p);
            if (fence != '`' && fence != '~') {
                return -1;
            }
            int runStart = p;
            while (p < n && text.charAt(p) == fence) {
                p++;
            }
            int len = p - runStart;
            if (len < 3) {
                return -1;
            }
            int nl = text.indexOf('\n', p);
            if (nl < 0) {
                return -1; // opener on the last line: cannot be closed
            }
            if (fence == '`') {
                for (int k = p; k < nl; k++) {
                    if (text.charAt(k) == '`') {
                        return -1; // backtick info strings may not contain backticks (CommonMark)
                    }
                }
            }
            return closers(fence).find(len, nl + 1);
        }

        private FenceClosers closers(char fence) {
            if (backtickClosers == null) {
                backtickClosers = new FenceClosers();
                tildeClosers = new FenceClosers();
                collectClosers();
            }
            return fence == '`' ? backtickClosers : tildeClosers;
        }

        /** One pass over all lines collecting lines that could close a fence. */
        private void collectClosers() {
            int ls = 0;
            while (ls < n) {
                int nl = text.indexOf('\n', ls);
                int le = nl < 0 ? n : nl;
                int next = nl < 0 ? n : nl + 1;
                int p = ls;
                int indent = 0;
                while (p < le && indent < 3 && text.charAt(p) == ' ') {
                    p++;
                    indent++;
                }
                if (p < le && (text.charAt(p) == '`' || text.charAt(p) == '~')) {
                    char fence = text.charAt(p);
                    int runStart = p;
                    while (p < le && text.charAt(p) == fence) {
                        p++;
                    }
                    int len = p - runStart;
                    while (p < le && (text.charAt(p) == ' ' || text.charAt(p) == '\t' || text.charAt(p) == '\r')) {
                        p++;
                    }
                    if (len >= 3 && p == le) {
                        (fence == '`' ? backtickClosers : tildeClosers).add(ls, len, next);
                    }
                }
                ls = next;
            }
            backtickClosers.seal();
            tildeClosers.seal();
        }

        // ---- inline code spans ----

        /** Skips a backtick run at {@code i}: the whole code span when matched on the same line, else the run. */
        private int skipBacktickRun(int i) {
            int runEnd = i;
            while (runEnd < n && text.charAt(runEnd) == '`') {
                runEnd++;
            }
            ensureLineRuns(i);
            int k = Arrays.binarySearch(runStarts, 0, runCount, i);
            if (k < 0 || runNext[k] < 0) {
                return runEnd; // unmatched run: literal backticks, contents after it are scanned normally
            }
            int m = runNext[k];
            return runStarts[m] + runLens[m];
        }

        private void ensureLineRuns(int i) {
            if (i >= lineStart && i < lineEnd) {
                return;
            }
            lineStart = text.lastIndexOf('\n', i - 1) + 1;
            int nl = text.indexOf('\n', i);
            lineEnd = nl < 0 ? n : nl;
            runCount = 0;
            int p = lineStart;
            while (p < lineEnd) {
                if (text.charAt(p) != '`') {
                    p++;
                    continue;
                }
                int s = p;
                while (p < lineEnd && text.charAt(p) == '`') {
                    p++;
                }
                if (runCount == runStarts.length) {
                    int cap = Math.max(8, runCount * 2);
                    runStarts = Arrays.copyOf(runStarts, cap);
                    runLens = Arrays.copyOf(runLens, cap);
                    runNext = Arrays.copyOf(runNext, cap);
                }
                runStarts[runCount] = s;
                runLens[runCount] = p - s;
                runCount++;
            }
            // next run of exactly the same length, found right to left
            Map<Integer, Integer> nextByLen = new HashMap<>();
            for (int k = runCount - 1; k >= 0; k--) {
                Integer next = nextByLen.put(runLens[k], k);
                runNext[k] = next == null ? -1 : next;
            }
        }
    }

    /** Candidate closing-fence lines for one fence character, in text order. */
    private static final class FenceClosers {
        private int[] starts = new int[8];
        private int[] lens = new int[8];
        private int[] ends = new int[8];
        private int[] suffixMaxLen;
        private int size;

        void add(int start, int len, int end) {
            if (size == starts.length) {
                starts = Arrays.copyOf(starts, size * 2);
                lens = Arrays.copyOf(lens, size * 2);
                ends = Arrays.copyOf(ends, size * 2);
            }
            starts[size] = start;
            lens[size] = len;
            ends[size] = end;
            size++;
        }

        void seal() {
            suffixMaxLen = new int[size + 1];
            for (int k = size - 1; k >= 0; k--) {
                suffixMaxLen[k] = Math.max(lens[k], suffixMaxLen[k + 1]);
            }
        }

        /**
         * First closer starting at or after {@code from} whose run is at least {@code minLen}; returns the index
         * after its line, or -1. The linear part only walks closers inside the block being skipped.
         */
        int find(int minLen, int from) {
            int k = Arrays.binarySearch(starts, 0, size, from);
            if (k < 0) {
                k = -k - 1;
            }
            if (suffixMaxLen[k] < minLen) {
                return -1;
            }
            while (lens[k] < minLen) {
                k++;
            }
            return ends[k];
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Rule B: secret shapes
    // ---------------------------------------------------------------------------------------------------------------

    private static String redactSecrets(String text) {
        String result = text;
        if (result.contains("-----BEGIN ")) {
            result = replaceAll(Patterns.PEM_PRIVATE_KEY, result, null);
        }
        if (mayHoldToken(result)) {
            result = replaceAll(Patterns.TOKEN_SHAPES, result, null);
        }
        if (containsAnyIgnoreCase(result, BEARER_WORDS)) {
            result = replaceAll(Patterns.BEARER, result, 1);
        }
        if ((result.indexOf('=') >= 0 || result.indexOf(':') >= 0) && containsAnyIgnoreCase(result, KEY_WORDS)) {
            result = redactAssignments(result);
        }
        return result;
    }

    /** Every assignment key word contains one of these (case-insensitive). */
    private static final String[] KEY_WORDS = {"passw", "pwd", "secret", "token", "key"};
    private static final String[] BEARER_WORDS = {"bearer"};
    private static final String[] TOKEN_PREFIXES = {"sk-", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
        "github_pat_", "xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"};

    private static boolean mayHoldToken(String text) {
        for (String prefix : TOKEN_PREFIXES) {
            if (text.contains(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** True when {@code text} contains any of the lower-case {@code words}, ignoring case. One pass. */
    private static boolean containsAnyIgnoreCase(String text, String[] words) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = Character.toLowerCase(text.charAt(i));
            for (String word : words) {
                if (c == word.charAt(0) && text.regionMatches(true, i, word, 0, word.length())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Replaces every match with {@code [keptGroup] + SECRET_MARKER}; returns the same instance on no match. */
    private static String replaceAll(Pattern pattern, String text, Integer keptGroup) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length());
        int last = 0;
        do {
            sb.append(text, last, m.start());
            if (keptGroup != null) {
                sb.append(text, m.start(keptGroup), m.end(keptGroup));
            }
            sb.append(SECRET_MARKER);
            last = m.end();
        } while (m.find());
        return sb.append(text, last, text.length()).toString();
    }

    private static String redactAssignments(String text) {
        Matcher m = Patterns.ASSIGNMENT.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        int from = 0;
        int n = text.length();
        while (from < n && m.find(from)) {
            int valueStart = m.end();
            int valueEnd = valueEnd(text, valueStart, m.end(1) > m.start(1) ? text.charAt(m.start(1)) : 0);
            from = Math.max(valueEnd, m.end());
            if (valueEnd <= valueStart) {
                continue;
            }
            if (sb == null) {
                sb = new StringBuilder(n);
            }
            sb.append(text, last, valueStart).append(SECRET_MARKER);
            last = valueEnd;
        }
        return sb == null ? text : sb.append(text, last, n).toString();
    }

    /**
     * End of the value starting at {@code start}, or {@code start} when there is nothing to redact. A quoted value
     * runs to its closing quote on the same line (backslash escapes honoured); otherwise, and for an unterminated
     * quote, the value is a run of characters other than whitespace, quotes, backticks, {@code , ; & } )}. Values that are
     * empty, already a marker, or start with {@code = { [ (} (comparisons, objects, arrays, calls) are skipped.
     */
    private static int valueEnd(String text, int start, char quote) {
        int n = text.length();
        if (quote != 0) {
            int p = start;
            while (p < n) {
                char c = text.charAt(p);
                if (c == '\\' && p + 1 < n && text.charAt(p + 1) != '\n') {
                    p += 2;
                } else if (c == quote || c == '\n' || c == '\r') {
                    break;
                } else {
                    p++;
                }
            }
            if (p < n && text.charAt(p) == quote) {
                if (p == start || text.startsWith(SECRET_MARKER, start) && p == start + SECRET_MARKER.length()
                        || text.startsWith(PRIVATE_MARKER, start) && p == start + PRIVATE_MARKER.length()) {
                    return start;
                }
                return p;
            }
        }
        if (start >= n || "={[(".indexOf(text.charAt(start)) >= 0) {
            return start;
        }
        int p = start;
        while (p < n) {
            char c = text.charAt(p);
            if (Character.isWhitespace(c) || c == '"' || c == '\'' || c == '`' || c == ',' || c == ';' || c == '&'
                    || c == '}' || c == ')') {
                break;
            }
            p++;
        }
        return p;
    }
}
