package dev.codememory.processors.align;

import java.util.Arrays;

/**
 * A text as code points with every run of whitespace collapsed to one space and the ends
 * trimmed, plus, for each code point, the UTF-16 range it came from in the original text,
 * so spans found here map back exactly.
 *
 * <p>
 * Whitespace is {@link Character#isWhitespace(int)}, {@link Character#isSpaceChar(int)}
 * (which adds the no-break spaces) and NEL. Nothing else is changed: no case folding, no
 * Unicode normalisation.
 */
final class NormalizedText {

    private static final int SPACE = ' ';

    private static final int NEXT_LINE = 0x85;

    private final int[] codePoints;

    private final int[] from;

    private final int[] to;

    private final int length;

    private NormalizedText(int[] codePoints, int[] from, int[] to, int length) {
        this.codePoints = codePoints;
        this.from = from;
        this.to = to;
        this.length = length;
    }

    static NormalizedText of(String text) {
        int capacity = text.length();
        int[] codePoints = new int[capacity];
        int[] from = new int[capacity];
        int[] to = new int[capacity];
        int n = 0;
        int spaceFrom = -1;
        int spaceTo = -1;
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (isWhitespace(cp)) {
                if (spaceFrom < 0) {
                    spaceFrom = i;
                }
                spaceTo = next;
            }
            else {
                if (spaceFrom >= 0 && n > 0) {
                    codePoints[n] = SPACE;
                    from[n] = spaceFrom;
                    to[n] = spaceTo;
                    n++;
                }
                spaceFrom = -1;
                codePoints[n] = cp;
                from[n] = i;
                to[n] = next;
                n++;
            }
            i = next;
        }
        return new NormalizedText(codePoints, from, to, n);
    }

    static boolean isWhitespace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == NEXT_LINE;
    }

    /** Number of code points. */
    int length() {
        return length;
    }

    /** The code points, trimmed to {@link #length()}. */
    int[] codePoints() {
        return Arrays.copyOf(codePoints, length);
    }

    /** Start, in the original text, of the code points {@code [start, end)}. */
    int originalStart(int start) {
        return from[start];
    }

    /** End (exclusive), in the original text, of the code points {@code [start, end)}. */
    int originalEnd(int end) {
        return to[end - 1];
    }

    /** First index at which {@code needle} occurs, or -1 (Knuth–Morris–Pratt, linear). */
    int indexOf(NormalizedText needle) {
        int m = needle.length;
        if (m == 0) {
            return 0;
        }
        if (m > length) {
            return -1;
        }
        int[] p = needle.codePoints;
        int[] fail = new int[m];
        for (int i = 1, k = 0; i < m; i++) {
            while (k > 0 && p[i] != p[k]) {
                k = fail[k - 1];
            }
            if (p[i] == p[k]) {
                k++;
            }
            fail[i] = k;
        }
        for (int i = 0, k = 0; i < length; i++) {
            while (k > 0 && codePoints[i] != p[k]) {
                k = fail[k - 1];
            }
            if (codePoints[i] == p[k]) {
                k++;
            }
            if (k == m) {
                return i - m + 1;
            }
        }
        return -1;
    }

}
