package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.vector.EmbeddedKinds;
import dev.codememory.jobs.fixtures.GeneratedSessions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * L4 with the real all-MiniLM-L6-v2 model, offline, through the real jar on a real DuckDB
 * file.
 */
@Tag("model")
class EmbeddingIntegrationTests {

    private static final String VECTORS = "vectors_all_minilm_l6_v2_q_384_mean_128";

    /** Verified, active memories of the kinds that get a vector. */
    private static final String EMBEDDED = "SELECT count(*) FROM entries WHERE stage = 'verified' AND status = 'active'"
            + " AND " + EmbeddedKinds.SQL;

    @TempDir
    Path tmp;

    @Test
    void graduateEmbedsEveryVerifiedMemoryOnceAndReindexRebuildsTheSameVectors() throws Exception {
        Path home = tmp.resolve("home");
        Path hooks = tmp.resolve("generated.jsonl");
        GeneratedSessions.write(hooks, 200);
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();

        JobsJar.Result first = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(first.exit()).as(first.stderr()).isZero();
        long verified = JobsJar.duckLong(home, EMBEDDED);
        assertThat(verified).isGreaterThan(50);
        // tool observations are verified memories too, found by their words: they get no
        // vector
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM entries WHERE stage = 'verified' AND status = 'active'"
                + " AND entry_type = 'observation'"))
            .isGreaterThan(50);
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM " + VECTORS + " WHERE kind = 'observation'")).isZero();
        assertThat(JobsJar.duckRows(home, "SELECT count(*), count(DISTINCT memory_id) FROM " + VECTORS))
            .containsExactly(List.of(verified, verified));
        assertThat(JobsJar.duckRows(home, "SELECT op, status, count(*) FROM vector_outbox GROUP BY ALL"))
            .containsExactly(List.of("upsert", "done", verified));
        assertThat(JobsJar.duckLong(home, "SELECT count(*) FROM " + VECTORS
                + " v JOIN entries e ON e.entry_id = v.memory_id"
                + " WHERE abs(list_reduce(list_transform(v.vector::FLOAT[], lambda x: x * x), lambda a, b: a + b) - 1) < 1e-4"
                + " AND v.kind = e.entry_type AND v.project = e.project"))
            .isEqualTo(verified);
        String before = vectors(home);

        JobsJar.Result second = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(second.exit()).isZero();
        assertThat(JobsJar.duckRows(home, """
                SELECT read_count, write_count FROM pipeline_metrics WHERE step_name = 'embedMemoriesStep'
                ORDER BY step_execution_id DESC LIMIT 1""")).containsExactly(List.of(0L, 0L));

        JobsJar.Result reindex = JobsJar.run(home, new byte[0], "--job=reindex");
        assertThat(reindex.exit()).as(reindex.stderr()).isZero();
        assertThat(reindex.stdout()).contains("embedded " + verified + " of " + verified);
        assertThat(vectors(home)).isEqualTo(before);
    }

    @Test
    void killedWhileEmbeddingResumesAndEmbedsEveryMemoryExactlyOnce() throws Exception {
        Path home = tmp.resolve("home");
        Path hooks = tmp.resolve("generated.jsonl");
        GeneratedSessions.write(hooks, 2_500);
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", hooks.toString()).exit()).isZero();

        Process job = JobsJar.start(home, tmp.resolve("kill.log"), "--job=graduate",
                "--code-memory.embedding.chunk-size=32");
        long deadline = System.currentTimeMillis() + 300_000;
        while (embeddedSoFar(home) == 0 && job.isAlive() && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertThat(job.isAlive()).as("still embedding when killed:\n" + Files.readString(tmp.resolve("kill.log")))
            .isTrue();
        job.destroyForcibly().waitFor();

        JobsJar.Result rerun = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(rerun.exit()).as(rerun.stderr()).isZero();
        long verified = JobsJar.duckLong(home, EMBEDDED);
        assertThat(JobsJar.duckRows(home, "SELECT count(*), count(DISTINCT memory_id) FROM " + VECTORS))
            .containsExactly(List.of(verified, verified));
        assertThat(JobsJar.duckRows(home, "SELECT status, count(*) FROM vector_outbox GROUP BY ALL"))
            .containsExactly(List.of("done", verified));
        assertThat(JobsJar.sqliteRows(home, "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID"))
            .containsExactly(List.of("FAILED"), List.of("COMPLETED"));
    }

    private static String vectors(Path home) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (List<Object> row : JobsJar.duckRows(home,
                "SELECT memory_id, vector::VARCHAR FROM " + VECTORS + " ORDER BY memory_id")) {
            sb.append(row.get(0)).append('=').append(row.get(1)).append('\n');
        }
        return sb.toString();
    }

    private static long embeddedSoFar(Path home) {
        try {
            List<List<Object>> rows = JobsJar.sqliteRows(home,
                    "SELECT WRITE_COUNT FROM BATCH_STEP_EXECUTION WHERE STEP_NAME = 'embedMemoriesStep'");
            return rows.isEmpty() ? 0 : ((Number) rows.get(0).get(0)).longValue();
        }
        catch (java.sql.SQLException e) {
            return 0;
        }
    }

}
