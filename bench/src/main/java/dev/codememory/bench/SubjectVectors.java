package dev.codememory.bench;

import dev.codememory.config.vector.VectorHit;
import dev.codememory.retrieval.ranking.VectorIndex;
import java.util.List;
import java.util.Random;

/**
 * Stand-in vectors for the query bench's memories that are not asked about, shaped like a
 * developer's real ones.
 *
 * <p>
 * The bench cannot embed a million memories (the model does a few hundred texts a second
 * here), so it embeds a pool of subjects (the model's vectors of other generated
 * memories) and draws each memory as a blend of one subject with two of that subject's
 * nearest neighbours in the pool, plus a little noise: memories about a subject shade
 * into the neighbouring ones, as notes about one component shade into notes about the
 * next.
 *
 * <p>
 * What "shaped like real ones" means here, measured: the local intrinsic dimensionality
 * (Levina–Bickel estimate, 20 neighbours) and the relative contrast (mean distance over
 * nearest distance) of the model's vectors of 4,230 real texts (the prompts, replies and
 * tool calls of 14 Claude Code sessions and the LoCoMo conversations): LID median 13.6,
 * contrast 3.2. These vectors, drawn {@value #PER_SUBJECT} to a subject as at a million
 * memories: 14.6 and 3.3. Isotropic noise around a few hundred topics (the bench's
 * earlier vectors) at that density measured 104 and 1.1 — every neighbour nearly as far
 * as every other, which no real embedding is and on which no graph index finds anything.
 */
final class SubjectVectors {

    /** Memories drawn per subject: the density at which the shape above was measured. */
    static final int PER_SUBJECT = 50;
    static final int MIN_SUBJECTS = 256;
    static final int MAX_SUBJECTS = 20_000;

    /** Neighbours of a subject a memory may blend in. */
    static final int NEIGHBOURS = 10;

    /** Gaussian noise per dimension (its norm over 384 dimensions is ~0.25). */
    static final double NOISE = 0.0125;

    private final float[][] subjects;

    private final int[][] neighbours;

    /**
     * @param subjects the model's vectors of the pool's texts
     */
    SubjectVectors(float[][] subjects) {
        if (subjects.length <= NEIGHBOURS) {
            throw new IllegalArgumentException("need more than " + NEIGHBOURS + " subjects, got " + subjects.length);
        }
        this.subjects = new float[subjects.length][];
        for (int s = 0; s < subjects.length; s++) {
            this.subjects[s] = unit(subjects[s]);
        }
        this.neighbours = nearest(this.subjects);
    }

    /** How many subjects to embed for a bench of {@code memories}. */
    static int subjectsFor(int memories) {
        return Math.max(MIN_SUBJECTS, Math.min(MAX_SUBJECTS, memories / PER_SUBJECT));
    }

    int size() {
        return subjects.length;
    }

    int[] neighbours(int subject) {
        return neighbours[subject].clone();
    }

    /**
     * A unit vector about {@code subject}: the first of two of its neighbours weighs up
     * to 1/2, the second up to half of what is left, the subject the rest (0.56 on
     * average, at least 1/4); plus noise.
     */
    float[] draw(int subject, Random random) {
        float[] a = subjects[subject];
        float[] b = subjects[neighbours[subject][random.nextInt(NEIGHBOURS)]];
        float[] c = subjects[neighbours[subject][random.nextInt(NEIGHBOURS)]];
        double wb = random.nextDouble() * 0.5;
        double wc = random.nextDouble() * (0.5 - wb / 2);
        double wa = 1 - wb - wc;
        float[] v = new float[a.length];
        for (int d = 0; d < v.length; d++) {
            v[d] = (float) (wa * a[d] + wb * b[d] + wc * c[d] + random.nextGaussian() * NOISE);
        }
        return unit(v);
    }

    /**
     * Each subject's nearest other subjects, best first (through an HNSW graph: the pool
     * has up to 20k).
     */
    private static int[][] nearest(float[][] subjects) {
        VectorIndex index = new VectorIndex(subjects[0].length, 0);
        for (int s = 0; s < subjects.length; s++) {
            index.put(Integer.toString(s), subjects[s]);
        }
        index.buildGraph();
        int[][] out = new int[subjects.length][NEIGHBOURS];
        for (int s = 0; s < subjects.length; s++) {
            List<VectorHit> hits = index.search(subjects[s], NEIGHBOURS + 1);
            int j = 0;
            for (VectorHit hit : hits) {
                int other = Integer.parseInt(hit.memoryId());
                if (other != s && j < NEIGHBOURS) {
                    out[s][j++] = other;
                }
            }
            if (j < NEIGHBOURS) {
                throw new IllegalStateException("subject " + s + " has only " + j + " neighbours in the graph");
            }
        }
        return out;
    }

    static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float k = (float) (1 / Math.sqrt(norm));
        float[] out = new float[v.length];
        for (int d = 0; d < v.length; d++) {
            out[d] = v[d] * k;
        }
        return out;
    }

}
