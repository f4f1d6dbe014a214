package dev.codememory.retrieval.embed;

/** Vector arithmetic for assertions. */
final class Vectors {

    private Vectors() {
    }

    static double cosine(float[] a, float[] b) {
        return dot(a, b) / (norm(a) * norm(b));
    }

    static double norm(float[] vector) {
        return Math.sqrt(dot(vector, vector));
    }

    private static double dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("dimensions differ: " + a.length + " vs " + b.length);
        }
        double sum = 0.0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }

}
