package dev.codememory.processors.align;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the window of a text most similar to a pattern, both as code points.
 *
 * <p>
 * Similarity of a window is
 * {@code 1 - levenshtein(pattern, window) / max(|pattern|, |window|)}. A window can only
 * reach the threshold {@code t} with at most {@code k = floor((1 - t) * floor(m / t))}
 * edits, which bounds every candidate's length to {@code [m - k, m + k]}: windows of
 * every such length are considered, not a few fixed sizes.
 *
 * <ol>
 * <li><b>Filter</b> (lossless): the pattern is cut into {@code k + 1} disjoint pieces; a
 * window with at most {@code k} edits leaves at least one piece untouched, so it contains
 * that piece verbatim near the piece's own offset. A rolling hash finds every occurrence
 * of every piece in one pass; only regions around them are searched.</li>
 * <li><b>Search</b>: in each region, approximate string matching (the Sellers dynamic
 * programme, pattern prefix against any text substring) with Ukkonen's cut-off, which
 * computes only the rows that can still be within {@code k}. Each cell also carries the
 * start of its best alignment, so every end position yields its closest window: minimal
 * distance, earliest start on ties.</li>
 * <li><b>Choice</b>: the window with the highest similarity; ties go to the earliest
 * start, then to the length closest to the pattern's, then to the shorter.</li>
 * </ol>
 *
 * <p>
 * Cost: the filter is {@code O(n + hits)}; the search is {@code O(r * k)} expected and
 * {@code O(r * m)} worst case, where {@code r <= n} is the total length of the candidate
 * regions. No {@code O(n * m^2)} path exists.
 */
final class FuzzySearch {

    /** A window {@code [start, end)} of the text and its edit distance to the pattern. */
    record Window(int start, int end, int distance) {

        int length() {
            return end - start;
        }
    }

    private static final long HASH_BASE = 0x9E3779B97F4A7C15L;

    private FuzzySearch() {
    }

    /**
     * The most edits a window may need and still reach {@code threshold} against a
     * pattern of {@code m}.
     */
    static int maxEdits(int m, double threshold) {
        int longest = (int) Math.floor(m / threshold + 1e-9);
        int edits = (int) Math.floor((1.0 - threshold) * longest + 1e-9);
        return Math.min(edits, m - 1);
    }

    /**
     * Whether {@code distance} edits over a window of {@code length} reach
     * {@code threshold}.
     */
    static boolean reaches(int m, int length, int distance, double threshold) {
        return similarity(m, length, distance) >= threshold - 1e-12;
    }

    static double similarity(int m, int length, int distance) {
        return 1.0 - (double) distance / Math.max(m, length);
    }

    /** The best window reaching {@code threshold}, or {@code null}. */
    static Window best(int[] pattern, int[] text, double threshold) {
        int m = pattern.length;
        int n = text.length;
        if (m == 0) {
            return null;
        }
        int k = maxEdits(m, threshold);
        if (n < m - k) {
            return null;
        }
        Scan scan = new Scan(pattern, text, k, threshold);
        for (int[] region : candidateRegions(pattern, text, k)) {
            scan.run(region[0], region[1]);
        }
        return scan.best;
    }

    /**
     * Merged, sorted {@code [from, to)} regions of the text that may hold a window within
     * {@code k} edits.
     */
    static List<int[]> candidateRegions(int[] pattern, int[] text, int k) {
        int m = pattern.length;
        int n = text.length;
        int pieces = k + 1;
        int pieceLength = m / pieces;
        List<int[]> regions = new ArrayList<>();
        if (pieceLength == 0 || n < pieceLength) {
            return regions;
        }
        // pieces with the same hash, grouped by content: one comparison per group,
        // however often a piece repeats
        Map<Long, List<List<Integer>>> piecesByHash = new HashMap<>();
        for (int p = 0; p < pieces; p++) {
            int offset = p * pieceLength;
            List<List<Integer>> groups = piecesByHash.computeIfAbsent(hash(pattern, offset, pieceLength),
                    h -> new ArrayList<>(1));
            List<Integer> same = null;
            for (List<Integer> group : groups) {
                if (regionMatches(pattern, group.get(0), pattern, offset, pieceLength)) {
                    same = group;
                    break;
                }
            }
            if (same == null) {
                same = new ArrayList<>();
                groups.add(same);
            }
            same.add(offset);
        }
        long highPower = 1;
        for (int i = 1; i < pieceLength; i++) {
            highPower *= HASH_BASE;
        }
        // anchor[a]: some piece occurs verbatim where a window starting at a would put it
        boolean[] anchor = new boolean[n];
        boolean anyAnchor = false;
        long h = hash(text, 0, pieceLength);
        for (int i = 0;; i++) {
            List<List<Integer>> groups = piecesByHash.get(h);
            if (groups != null) {
                for (List<Integer> group : groups) {
                    if (regionMatches(pattern, group.get(0), text, i, pieceLength)) {
                        for (int offset : group) {
                            anchor[Math.max(0, i - offset)] = true;
                        }
                        anyAnchor = true;
                    }
                }
            }
            if (i + pieceLength >= n) {
                break;
            }
            h = (h - text[i] * highPower) * HASH_BASE + text[i + pieceLength];
        }
        if (!anyAnchor) {
            return regions;
        }
        // a window within k edits that keeps a piece at its anchor a starts in [a - k, a
        // + k] and is at most
        // m + k long, so it lies inside [a - k, a + m + 2k)
        int[] current = null;
        for (int a = 0; a < n; a++) {
            if (!anchor[a]) {
                continue;
            }
            int from = Math.max(0, a - k);
            int to = (int) Math.min(n, (long) a + m + 2L * k);
            if (current != null && from <= current[1]) {
                current[1] = Math.max(current[1], to);
            }
            else {
                current = new int[] { from, to };
                regions.add(current);
            }
        }
        return regions;
    }

    private static long hash(int[] values, int offset, int length) {
        long h = 0;
        for (int i = offset; i < offset + length; i++) {
            h = h * HASH_BASE + values[i];
        }
        return h;
    }

    private static boolean regionMatches(int[] a, int aOffset, int[] b, int bOffset, int length) {
        for (int i = 0; i < length; i++) {
            if (a[aOffset + i] != b[bOffset + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sellers' search with Ukkonen's cut-off and start tracking; keeps the best window
     * seen across regions.
     *
     * <p>
     * A cell is one {@code long}: distance in the high 32 bits, start of its window in
     * the low 32. Adding an edit adds {@link #EDIT}, and the lexicographic choice (fewest
     * edits, then earliest start) is a plain {@code min}, which keeps the inner loop free
     * of branches.
     */
    private static final class Scan {

        private static final long EDIT = 1L << 32;

        private static final long START_MASK = EDIT - 1;

        private final int[] pattern;

        private final int[] text;

        private final int k;

        private final long overK;

        private final double threshold;

        /**
         * Column of the programme: distance of pattern[0, i) to its closest text window
         * ending here, and its start.
         */
        private final long[] cells;

        private Window best;

        Scan(int[] pattern, int[] text, int k, double threshold) {
            this.pattern = pattern;
            this.text = text;
            this.k = k;
            this.overK = (k + 1) * EDIT;
            this.threshold = threshold;
            this.cells = new long[pattern.length + 1];
        }

        void run(int from, int to) {
            int m = pattern.length;
            long[] column = cells;
            int top = Math.min(k + 1, m);
            for (int i = 0; i <= top; i++) {
                column[i] = i * EDIT | from;
            }
            for (int j = from + 1; j <= to; j++) {
                int c = text[j - 1];
                long diagonal = column[0];
                long up = j;
                column[0] = up;
                for (int i = 1; i <= top; i++) {
                    long left = column[i];
                    long cell = Math.min(diagonal + (pattern[i - 1] == c ? 0 : EDIT), Math.min(up, left) + EDIT);
                    column[i] = cell;
                    diagonal = left;
                    up = cell;
                }
                while (column[top] >= overK) {
                    top--;
                }
                if (top == m) {
                    long cell = column[m];
                    consider(new Window((int) (cell & START_MASK), j, (int) (cell >>> 32)));
                }
                else {
                    // the newly active row is known only to exceed k; that lower bound is
                    // all the cut-off needs
                    top++;
                    column[top] = overK | START_MASK;
                }
            }
        }

        private void consider(Window candidate) {
            int m = pattern.length;
            if (!reaches(m, candidate.length(), candidate.distance(), threshold)) {
                return;
            }
            if (best == null || isBetter(candidate, best, m)) {
                best = candidate;
            }
        }

    }

    /**
     * Higher similarity; then earlier start; then length closer to the pattern's; then
     * shorter.
     */
    static boolean isBetter(Window a, Window b, int m) {
        // compare distance / max(m, length) exactly, by cross-multiplying
        long left = (long) a.distance() * Math.max(m, b.length());
        long right = (long) b.distance() * Math.max(m, a.length());
        if (left != right) {
            return left < right;
        }
        if (a.start() != b.start()) {
            return a.start() < b.start();
        }
        int aGap = Math.abs(a.length() - m);
        int bGap = Math.abs(b.length() - m);
        if (aGap != bGap) {
            return aGap < bGap;
        }
        return a.length() < b.length();
    }

}
