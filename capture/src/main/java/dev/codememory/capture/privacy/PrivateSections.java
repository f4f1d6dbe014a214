package dev.codememory.capture.privacy;

import dev.codememory.capture.privacy.secrets.SecretRules;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Rule 1 of {@link Redactor}: {@code <private>…</private>} sections (case-insensitive tag
 * names, spaces allowed before {@code >}) become {@value Redactor#PRIVATE_MARKER}; empty
 * or whitespace-only sections vanish; nesting redacts the whole outer block; an unclosed
 * opener redacts to the end of the text; a stray closer stays literal. Tags inside closed
 * fenced code blocks and inline code spans stay literal, but only while outside a private
 * section. One pass over the text; JDK only, like the redactor.
 */
final class PrivateSections {

    private static final String TAG_NAME = "private";

    private static final String OPEN_PREFIX = "<" + TAG_NAME;

    private PrivateSections() {
    }

    /**
     * The text with its private sections replaced; the same instance when it has none.
     * {@code latin}: the text's Latin-1 copy ({@link SecretRules#latin}).
     */
    static String redact(String text, String latin) {
        if (!containsIgnoreCase(text, latin, OPEN_PREFIX)) {
            return text;
        }
        return new PrivateScanner(text).run();
    }

    /**
     * {@code latin}: the text's Latin-1 copy, where its first character (ASCII) is found
     * fast.
     */
    private static boolean containsIgnoreCase(String text, String latin, String needle) {
        int len = needle.length();
        char first = needle.charAt(0);
        int from = 0;
        while (true) {
            int idx = latin.indexOf(first, from);
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
                }
                else if (c == '<') {
                    int openEnd = matchTag(i, false);
                    i = openEnd > 0 ? consumePrivate(i, openEnd) : i + 1;
                }
                else {
                    i++;
                }
            }
            if (out == null) {
                return text;
            }
            out.append(text, emitted, n);
            return out.toString();
        }

        /**
         * Consumes a private section starting at {@code start}; returns the index to
         * continue scanning from.
         */
        private int consumePrivate(int start, int openEnd) {
            int depth = 1;
            int j = openEnd;
            while (true) {
                int lt = text.indexOf('<', j);
                if (lt < 0) {
                    // unclosed: everything to the end is private
                    replace(start, n, Redactor.PRIVATE_MARKER);
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
                            replace(start, e, Redactor.PRIVATE_MARKER);
                            return e;
                        }
                        replace(start, e, "");
                        if (e < n && text.charAt(e) == ' ' && out.length() > 0 && out.charAt(out.length() - 1) == ' ') {
                            emitted = e + 1; // collapse the double space the removal
                                             // would leave
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
         * If a fence opener line starts at {@code i} and a matching closing fence exists,
         * returns the index just after the closing fence line; otherwise -1 (an unclosed
         * fence protects nothing).
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
                        return -1; // backtick info strings may not contain backticks
                                   // (CommonMark)
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

        /**
         * Skips a backtick run at {@code i}: the whole code span when matched on the same
         * line, else the run.
         */
        private int skipBacktickRun(int i) {
            int runEnd = i;
            while (runEnd < n && text.charAt(runEnd) == '`') {
                runEnd++;
            }
            ensureLineRuns(i);
            int k = Arrays.binarySearch(runStarts, 0, runCount, i);
            if (k < 0 || runNext[k] < 0) {
                return runEnd; // unmatched run: literal backticks, contents after it are
                               // scanned normally
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
         * First closer starting at or after {@code from} whose run is at least
         * {@code minLen}; returns the index after its line, or -1. The linear part only
         * walks closers inside the block being skipped.
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

}
