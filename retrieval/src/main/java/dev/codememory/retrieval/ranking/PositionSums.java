package dev.codememory.retrieval.ranking;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Two sums by document position and the list of positions touched, lent to one ranking
 * call at a time and kept between calls with every sum back at 0: a query whose words
 * occur in most of a 100k-memory project would otherwise allocate arrays of the project's
 * size several times over, and serve's heap grows with what its queries allocate. There
 * are as many as calls ever ran at once — in serve, one or two.
 */
final class PositionSums {

    private static final ConcurrentLinkedQueue<PositionSums> SPARE = new ConcurrentLinkedQueue<>();

    /** By position; 0 wherever not touched. */
    double[] first = new double[0];

    double[] second = new double[0];

    /** The positions touched, in the order first touched. */
    int[] touched = new int[1024];

    private PositionSums() {
    }

    /** Sums for positions below {@code size}, all 0. */
    static PositionSums take(int size) {
        PositionSums s = SPARE.poll();
        s = s == null ? new PositionSums() : s;
        if (s.first.length < size) {
            int capacity = Math.max(size, s.first.length + s.first.length / 2);
            s.first = new double[capacity];
            s.second = new double[capacity];
        }
        return s;
    }

    /** Records {@code position} as the {@code i}-th touched. */
    void touch(int i, int position) {
        if (i == touched.length) {
            touched = Arrays.copyOf(touched, 2 * i);
        }
        touched[i] = position;
    }

    /**
     * Clears the first {@code count} touched positions and gives the sums back for the
     * next call.
     */
    void give(int count) {
        for (int i = 0; i < count; i++) {
            first[touched[i]] = 0;
            second[touched[i]] = 0;
        }
        SPARE.offer(this);
    }

}
