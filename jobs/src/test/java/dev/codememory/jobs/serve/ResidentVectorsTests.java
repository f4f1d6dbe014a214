package dev.codememory.jobs.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Serve's in-memory vectors against the table they are read from: a search across all
 * projects (the viewer's default) answers from each project's index with exactly what an
 * exact scan of the table returns.
 */
class ResidentVectorsTests {

    private static final EmbeddingVersion V = new EmbeddingVersion("test-model", 8, "mean", 16);

    private static final LocalDateTime T = LocalDateTime.of(2026, 11, 1, 10, 0);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbVectorStore table;

    private ResidentVectors resident;

    @BeforeEach
    void open() {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        table = new DuckDbVectorStore(session::connection, V);
        table.ensureReady();
        resident = new ResidentVectors(table, 10_000);
    }

    @AfterEach
    void close() {
        resident.shutdown();
        session.close();
    }

    @Test
    void searchAcrossProjectsMatchesTheExactScanOfTheTable() {
        Random random = new Random(7);
        List<VectorRecord> records = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String project = "/p" + (i % 3);
            String status = i % 10 == 0 ? "superseded" : "active";
            records.add(new VectorRecord("m" + i, vector(random), project, "fact", status, T.plusMinutes(i)));
        }
        table.upsert(records);

        for (int q = 0; q < 20; q++) {
            float[] query = vector(random);
            List<VectorHit> exact = table.search(query, 10,
                    new VectorFilter(null, Set.of(), Set.of("active"), null, null));
            List<VectorHit> resident = this.resident.search(query, 10,
                    new VectorFilter(null, Set.of(), Set.of("active"), null, null));
            // the index holds int8 vectors: a neighbour may trade places at the edge of
            // the ten, never the nearest
            assertThat(resident.get(0).memoryId()).isEqualTo(exact.get(0).memoryId());
            List<String> exactIds = exact.stream().map(VectorHit::memoryId).toList();
            assertThat(resident.stream().filter(h -> exactIds.contains(h.memoryId())).count())
                .isGreaterThanOrEqualTo(9);
            assertThat(resident).hasSize(10);
        }
        assertThat(resident.projects()).containsExactlyInAnyOrder("/p0", "/p1", "/p2");
        // a superseded vector is never among the answers
        assertThat(resident.search(records.get(0).vector(), 300,
                new VectorFilter(null, Set.of(), Set.of("active"), null, null)))
            .hasSize(270)
            .extracting(VectorHit::memoryId)
            .doesNotContain("m0", "m10");
    }

    /**
     * After a job: what the embed step wrote is found, what it superseded or a forget
     * removed is not.
     */
    @Test
    void refreshAddsTheNewVectorsOfALoadedProjectAndDropsThoseNoLongerActive() {
        Random random = new Random(11);
        table.upsert(List.of(new VectorRecord("old", vector(random), "/p", "fact", "active", T),
                new VectorRecord("kept", vector(random), "/p", "fact", "active", T.plusMinutes(1))));
        VectorFilter active = VectorFilter.project("/p");
        assertThat(resident.search(vector(random), 10, active)).extracting(VectorHit::memoryId)
            .containsExactlyInAnyOrder("old", "kept");

        float[] added = vector(random);
        table.upsert(List.of(new VectorRecord("new", added, "/p", "decision", "active", T.plusMinutes(2)),
                new VectorRecord("old", vector(random), "/p", "fact", "superseded", T)));
        assertThat(resident.refresh("/p")).containsExactly(1, 1);

        List<VectorHit> hits = resident.search(added, 10, active);
        assertThat(hits).extracting(VectorHit::memoryId).containsExactly("new", "kept");
        assertThat(resident.refresh("/p")).containsExactly(0, 0);
        assertThat(resident.refresh("/not-loaded")).containsExactly(0, 0);
    }

    private static float[] vector(Random random) {
        float[] v = new float[V.dimension()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

}
