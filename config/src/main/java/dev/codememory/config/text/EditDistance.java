package dev.codememory.config.text;

/**
 * Levenshtein distance in code points (insert, delete and substitute each cost 1),
 * computed with two rows of memory. The one implementation for evidence alignment's fuzzy
 * windows and task title matching.
 */
public final class EditDistance {

    private EditDistance() {
    }

    /** The distance between two strings, compared code point by code point. */
    public static int levenshtein(String a, String b) {
        int[] y = b.codePoints().toArray();
        return levenshtein(a.codePoints().toArray(), y, 0, y.length);
    }

    /** The distance between {@code a} and the code points {@code b[bFrom, bTo)}. */
    public static int levenshtein(int[] a, int[] b, int bFrom, int bTo) {
        int n = bTo - bFrom;
        int[] previous = new int[n + 1];
        int[] current = new int[n + 1];
        for (int j = 0; j <= n; j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length; i++) {
            current[0] = i;
            for (int j = 1; j <= n; j++) {
                int substitution = previous[j - 1] + (a[i - 1] == b[bFrom + j - 1] ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[n];
    }

}
