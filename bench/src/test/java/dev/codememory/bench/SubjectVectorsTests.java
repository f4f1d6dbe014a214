package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SubjectVectorsTests {

    private static final int DIMENSION = 64;

    @Test
    void aDrawnVectorIsAUnitVectorNearestItsOwnSubjectAndItsNeighbours() {
        float[][] pool = randomUnitVectors(300, new Random(1));
        SubjectVectors subjects = new SubjectVectors(pool);
        Random random = new Random(2);

        for (int s = 0; s < 50; s++) {
            float[] v = subjects.draw(s, random);
            assertThat(dot(v, v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
            int nearest = 0;
            for (int o = 1; o < pool.length; o++) {
                if (dot(v, pool[o]) > dot(v, pool[nearest])) {
                    nearest = o;
                }
            }
            int[] blended = subjects.neighbours(s);
            int found = nearest;
            assertThat(found == s || java.util.Arrays.stream(blended).anyMatch(n -> n == found))
                .as("subject %d: nearest %d is neither it nor one of its neighbours", s, found)
                .isTrue();
            assertThat(dot(v, pool[s])).as("subject %d", s).isGreaterThan(0.2);
        }
    }

    @Test
    void neighboursAreTheNearestOtherSubjectsBestFirst() {
        float[][] pool = randomUnitVectors(200, new Random(3));
        SubjectVectors subjects = new SubjectVectors(pool);

        int[] found = subjects.neighbours(7);
        assertThat(found).hasSize(SubjectVectors.NEIGHBOURS).doesNotContain(7);
        double tenth = dot(pool[7], pool[found[SubjectVectors.NEIGHBOURS - 1]]);
        int closerOutside = 0;
        for (int o = 0; o < pool.length; o++) {
            int other = o;
            if (o != 7 && java.util.Arrays.stream(found).noneMatch(f -> f == other) && dot(pool[7], pool[o]) > tenth) {
                closerOutside++;
            }
        }
        assertThat(closerOutside).isZero(); // a search beam of 800 over 200 subjects
                                            // visits them all
        for (int j = 1; j < found.length; j++) {
            assertThat(dot(pool[7], pool[found[j]])).isLessThanOrEqualTo(dot(pool[7], pool[found[j - 1]]));
        }
    }

    @Test
    void theSameSeedDrawsTheSameVectors() {
        SubjectVectors subjects = new SubjectVectors(randomUnitVectors(100, new Random(4)));

        assertThat(subjects.draw(3, new Random(9))).containsExactly(subjects.draw(3, new Random(9)));
    }

    @Test
    void poolSizeFollowsTheMemoriesWithinBounds() {
        assertThat(SubjectVectors.subjectsFor(10_000)).isEqualTo(SubjectVectors.MIN_SUBJECTS);
        assertThat(SubjectVectors.subjectsFor(100_000)).isEqualTo(2_000);
        assertThat(SubjectVectors.subjectsFor(1_000_000)).isEqualTo(20_000);
        assertThat(SubjectVectors.subjectsFor(3_000_000)).isEqualTo(SubjectVectors.MAX_SUBJECTS);
        assertThatThrownBy(() -> new SubjectVectors(randomUnitVectors(SubjectVectors.NEIGHBOURS, new Random(5))))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("more than");
    }

    private static float[][] randomUnitVectors(int count, Random random) {
        float[][] out = new float[count][DIMENSION];
        for (float[] v : out) {
            for (int d = 0; d < DIMENSION; d++) {
                v[d] = (float) random.nextGaussian();
            }
        }
        for (int i = 0; i < count; i++) {
            out[i] = unit(out[i]);
        }
        return out;
    }

    private static float[] unit(float[] v) {
        return SubjectVectors.unit(v);
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int d = 0; d < a.length; d++) {
            s += (double) a[d] * b[d];
        }
        return s;
    }

}
