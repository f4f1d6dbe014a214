package dev.codememory.capture.privacy.secrets;

import java.util.Arrays;

/**
 * A token body that is a sequence of runs of character classes and literal characters,
 * such as {@code [A-Za-z0-9_-]{20,}+}, {@code [0-9A-Z]{16}} or
 * {@code [A-Za-z0-9]{14}\\.[a-f0-9]{64}}: most bodies are, and matching them by hand
 * spares a hook the regex engine's cold start. Only bodies in which no run can give
 * characters back are accepted (a run is the last element or is followed by a character
 * outside its class), so the longest run (up to its maximum) at each step is what the
 * regex matches with {@code lookingAt}.
 */
final class RunBody {

    private final boolean[][] classes; // per element, the characters it takes

    private final int[] mins;

    private final int[] maxes;

    private RunBody(boolean[][] classes, int[] mins, int[] maxes) {
        this.classes = classes;
        this.mins = mins;
        this.maxes = maxes;
    }

    /**
     * Parses a body of {@code [class]} and literal elements, each with an optional
     * quantifier; else null.
     */
    static RunBody parse(String body) {
        int count = 0;
        boolean[][] classes = new boolean[body.length()][];
        int[] mins = new int[body.length()];
        int[] maxes = new int[body.length()];
        int k = 0;
        while (k < body.length()) {
            boolean[] cls = new boolean[128];
            char c = body.charAt(k);
            if (c == '[') {
                int close = body.indexOf(']', k);
                if (close < 0 || !parseClass(body.substring(k + 1, close), cls)) {
                    return null;
                }
                k = close + 1;
            }
            else if (c == '\\' && k + 1 < body.length() && body.charAt(k + 1) == '.') {
                cls['.'] = true;
                k += 2;
            }
            else if (c < 128 && (Ascii.isAlnum(c) || "_-:=~/".indexOf(c) >= 0)) {
                cls[c] = true;
                k++;
            }
            else {
                return null; // a group, an alternative, an escape class: left to the
                             // regex engine
            }
            int min = 1;
            int max = 1;
            if (k < body.length() && body.charAt(k) == '{') {
                int close = body.indexOf('}', k);
                if (close < 0) {
                    return null;
                }
                String q = body.substring(k + 1, close);
                int comma = q.indexOf(',');
                String low = comma < 0 ? q : q.substring(0, comma);
                String high = comma < 0 ? q : q.substring(comma + 1);
                if (!Ascii.allDigits(low) || !(high.isEmpty() && comma >= 0 || Ascii.allDigits(high))) {
                    return null;
                }
                min = Integer.parseInt(low);
                max = high.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(high);
                k = close + 1;
            }
            else if (k < body.length() && body.charAt(k) == '*') {
                min = 0;
                max = Integer.MAX_VALUE;
                k++;
            }
            if (k < body.length() && body.charAt(k) == '+') {
                k++; // possessive: the same as greedy here, since no run gives
                     // characters back
            }
            if (min > max) {
                return null;
            }
            classes[count] = cls;
            mins[count] = min;
            maxes[count] = max;
            count++;
        }
        for (int e = 0; e < count; e++) {
            if (mins[e] == maxes[e]) {
                continue;
            }
            // a run that may give characters back: what follows, up to the first
            // element that must take one,
            // may not take a character of this run's class, or the regex could
            // backtrack into this run
            for (int f = e + 1; f < count; f++) {
                if (overlaps(classes[e], classes[f])) {
                    return null;
                }
                if (mins[f] > 0) {
                    break;
                }
            }
        }
        return count == 0 ? null
                : new RunBody(Arrays.copyOf(classes, count), Arrays.copyOf(mins, count), Arrays.copyOf(maxes, count));
    }

    private static boolean parseClass(String cls, boolean[] chars) {
        if (cls.isEmpty()) {
            return false;
        }
        int k = 0;
        while (k < cls.length()) {
            char from = cls.charAt(k);
            if (k + 2 < cls.length() && cls.charAt(k + 1) == '-') {
                char to = cls.charAt(k + 2);
                if (!Ascii.isAlnum(from) || !Ascii.isAlnum(to) || to < from) {
                    return false;
                }
                for (char c = from; c <= to; c++) {
                    chars[c] = true;
                }
                k += 3;
            }
            else {
                if (from >= 128 || !(Ascii.isAlnum(from) || "_-+/=.~".indexOf(from) >= 0)) {
                    return false;
                }
                chars[from] = true;
                k++;
            }
        }
        return true;
    }

    private static boolean overlaps(boolean[] a, boolean[] b) {
        for (int c = 0; c < 128; c++) {
            if (a[c] && b[c]) {
                return true;
            }
        }
        return false;
    }

    /** The end of the body starting at {@code start}, or -1 when there is none. */
    int end(byte[] view, int start) {
        int p = start;
        for (int e = 0; e < classes.length; e++) {
            boolean[] ok = classes[e];
            int limit = maxes[e] >= view.length - p ? view.length : p + maxes[e];
            int q = p;
            while (q < limit && view[q] >= 0 && ok[view[q]]) {
                q++;
            }
            if (q - p < mins[e]) {
                return -1;
            }
            p = q;
        }
        return p;
    }

}
