package dev.codememory.capture.privacy.secrets;

import java.util.Arrays;

/** Positions where a match may start: a growable, then sorted, list. */
final class Starts {

    private int[] positions = new int[8];

    private int size;

    /** Each occurrence of {@code literal} in {@code latin}, less {@code offset}. */
    static Starts of(String latin, String literal, int offset) {
        Starts starts = new Starts();
        starts.addAll(latin, literal, offset);
        return starts;
    }

    void addAll(String latin, String literal, int offset) {
        for (int q = latin.indexOf(literal); q >= 0; q = latin.indexOf(literal, q + 1)) {
            add(q - offset);
        }
    }

    void addIf(boolean possible, int start) {
        if (possible) {
            add(start);
        }
    }

    void add(int start) {
        if (start < 0) {
            return;
        }
        if (size == positions.length) {
            positions = Arrays.copyOf(positions, size * 2);
        }
        positions[size++] = start;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int[] sorted() {
        int[] sorted = Arrays.copyOf(positions, size);
        Arrays.sort(sorted);
        return sorted;
    }

}
