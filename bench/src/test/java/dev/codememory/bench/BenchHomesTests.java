package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's homes: which memories are asked about, when each was made, and a small home
 * written whole (every table, the citations and the vectors), with a seeded stand-in for
 * the model.
 */
class BenchHomesTests {

    @TempDir
    Path tmp;

    @Test
    void targetsTakeOneDistinctMemoryFromEachSlice() {
        int[] targets = BenchHomes.targets(10_000, 200);

        assertThat(targets).hasSize(200);
        assertThat(Arrays.stream(targets).distinct().count()).isEqualTo(200);
        for (int q = 0; q < targets.length; q++) {
            assertThat(targets[q] / 50).as("query %d", q).isEqualTo(q);
        }
        assertThat(BenchHomes.targets(5, 5)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void memoriesSpreadOverTheLastYearNewestNow() {
        LocalDateTime now = LocalDateTime.of(2026, 11, 21, 12, 0);

        assertThat(BenchHomes.createdAt(9_999, 10_000, now)).isEqualTo(now);
        assertThat(BenchHomes.createdAt(0, 10_000, now)).isEqualTo(now.minusSeconds(31_532_846));
        assertThat(BenchHomes.createdAt(4_999, 10_000, now)).isBefore(BenchHomes.createdAt(5_000, 10_000, now));
    }

    @Test
    void memoryIdsSortInIndexOrder() {
        assertThat(BenchHomes.memoryId(7)).isEqualTo("ent_bench_0000007");
        assertThat(BenchHomes.memoryId(99_999)).isGreaterThan(BenchHomes.memoryId(10_000));
    }

    @Test
    void aHomeHoldsEveryRowTheQueryPathReads() throws Exception {
        LocalDateTime now = LocalDateTime.of(2026, 11, 21, 12, 0);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        QueryBench.Fixture fixture = new BenchHomes(new PrintStream(printed, true, StandardCharsets.UTF_8))
            .build(tmp.resolve("home"), "/p", 50, 5, now, new SeededEmbedder());

        assertThat(fixture.memories()).isEqualTo(50);
        assertThat(fixture.targets()).containsExactly(0, 19, 28, 37, 46);
        assertThat(fixture.questions()).hasSize(5).doesNotHaveDuplicates();
        try (DuckDb.Session session = DuckDb.forHome(new CodeMemoryHome(tmp.resolve("home"))).openReadOnly();
                Connection c = session.connection()) {
            assertThat(count(c, "entries WHERE stage = 'verified' AND status = 'active' AND project = '/p'"))
                .isEqualTo(50);
            assertThat(count(c, "turns")).isEqualTo(50);
            assertThat(count(c, "events")).isEqualTo(100);
            assertThat(count(c, "evidence_spans")).isEqualTo(100);
            assertThat(count(c, "sessions")).isEqualTo(3);
            assertThat(count(c, "citations")).isEqualTo(50);
            assertThat(new DuckDbVectorStore(session::connection, MiniLmOnnxEmbedder.VERSION).count()).isEqualTo(50);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("50 memories in one project: built in");
    }

    private static long count(Connection c, String from) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Unit vectors of the model's dimension, seeded by the text. */
    private static final class SeededEmbedder implements Embedder {

        @Override
        public EmbeddingVersion version() {
            return MiniLmOnnxEmbedder.VERSION;
        }

        @Override
        public float[][] embed(List<String> texts) {
            float[][] out = new float[texts.size()][];
            for (int t = 0; t < out.length; t++) {
                Random random = new Random(texts.get(t).hashCode());
                float[] v = new float[MiniLmOnnxEmbedder.VERSION.dimension()];
                double norm = 0;
                for (int d = 0; d < v.length; d++) {
                    v[d] = (float) random.nextGaussian();
                    norm += v[d] * v[d];
                }
                for (int d = 0; d < v.length; d++) {
                    v[d] /= (float) Math.sqrt(norm);
                }
                out[t] = v;
            }
            return out;
        }

    }

}
