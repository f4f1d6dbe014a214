package dev.codememory.retrieval.vector;

import dev.codememory.config.db.DuckRows;
import java.sql.SQLException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.vector.BatchEmbedding;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.config.vector.VectorWork;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;

class VectorOutboxWriterTests {

    private static final EmbeddingVersion V = new EmbeddingVersion("test-model", 3, "mean", 16);

    private static final LocalDateTime T = LocalDateTime.of(2026, 11, 1, 10, 0);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbVectorStore store;

    private VectorOutbox outbox;

    @BeforeEach
    void open() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        store = new DuckDbVectorStore(session::connection, V);
        store.ensureReady();
        outbox = new VectorOutbox(session::connection);
        for (String id : new String[] { "e1", "e2", "e3" }) {
            exec("INSERT INTO entries VALUES ('" + id + "', 'c" + id
                    + "', 'fact', '/p', 's', TIMESTAMP '2026-11-01 10:00:00'," + " 'title " + id + "', 'body " + id
                    + "', NULL, '[]', 'k" + id + "', 'verified', 'active', NULL, now())");
        }
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void queuesVerifiedMemoriesOnceAndRemovalsWhenSuperseded() throws Exception {
        assertThat(outbox.queue(V.id())).isEqualTo(3);
        assertThat(outbox.queue(V.id())).isZero();
        exec("UPDATE entries SET status = 'superseded' WHERE entry_id = 'e2'");
        assertThat(outbox.queue(V.id())).isEqualTo(1);
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox ORDER BY memory_id"))
            .containsExactly("e1 upsert pending", "e2 delete pending", "e3 upsert pending");
    }

    @Test
    void pendingWorkIsRemovalsFirstThenTheNewestMemoriesFirst() throws Exception {
        exec("UPDATE entries SET created_ts = TIMESTAMP '2026-10-01 10:00:00' WHERE entry_id = 'e1'");
        exec("UPDATE entries SET created_ts = TIMESTAMP '2026-11-20 10:00:00' WHERE entry_id = 'e3'");
        outbox.queue(V.id());
        exec("UPDATE vector_outbox SET status = 'done'");
        exec("INSERT INTO entries VALUES ('e4', 'ce4', 'fact', '/p', 's', TIMESTAMP '2026-11-01 10:00:00',"
                + " 'title e4', 'body e4', NULL, '[]', 'ke4', 'verified', 'active', NULL, now())");
        exec("UPDATE entries SET status = 'superseded' WHERE entry_id = 'e2'");
        exec("DELETE FROM entries WHERE entry_id = 'e1'");
        exec("UPDATE vector_outbox SET status = 'pending' WHERE memory_id = 'e3'");
        outbox.queue(V.id());

        // e1 no longer exists and e2 was superseded: both removals, first; then e3 (Nov
        // 20) before e4 (Nov 1)
        assertThat(rows(VectorOutbox.pendingSql(V.id()))).containsExactly("e1", "e2", "e3", "e4");
    }

    @Test
    void toolObservationsGetNoVectorAndOneEmbeddedBeforeIsRemoved() throws Exception {
        exec("INSERT INTO entries VALUES ('o1', 'co1', 'observation', '/p', 's', TIMESTAMP '2026-11-01 10:00:00',"
                + " 'Bash: ls -la', 'total 8', NULL, '[]', 'ko1', 'verified', 'active', NULL, now())");
        assertThat(outbox.queue(V.id())).isEqualTo(3);
        assertThat(rows("SELECT memory_id FROM vector_outbox ORDER BY memory_id")).containsExactly("e1", "e2", "e3");

        // a home whose observations were embedded by an earlier version of the rules
        exec("INSERT INTO vector_outbox VALUES ('o1', '" + V.id() + "', 'upsert', 'done', 0, NULL, now())");
        assertThat(outbox.queue(V.id())).isEqualTo(1);
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox WHERE memory_id = 'o1'"))
            .containsExactly("o1 delete pending");
    }

    @Test
    void aMemoryThatNoLongerExistsIsRemovedAndOneActiveAgainIsQueuedAgain() throws Exception {
        outbox.queue(V.id());
        exec("UPDATE vector_outbox SET status = 'done'");
        exec("UPDATE entries SET status = 'superseded' WHERE entry_id = 'e2'");
        exec("DELETE FROM entries WHERE entry_id = 'e3'");

        assertThat(outbox.queue(V.id())).isEqualTo(2);
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox ORDER BY memory_id"))
            .containsExactly("e1 upsert done", "e2 delete pending", "e3 delete pending");

        exec("UPDATE vector_outbox SET status = 'done'");
        exec("UPDATE entries SET status = 'active' WHERE entry_id = 'e2'");
        assertThat(outbox.queue(V.id())).isEqualTo(1);
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox ORDER BY memory_id"))
            .containsExactly("e1 upsert done", "e2 upsert pending", "e3 delete done");
    }

    @Test
    void embedsUpsertsAndMarksDoneThenRemovesSupersededVectors() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        VectorOutboxWriter writer = new VectorOutboxWriter(session::connection, store, texts -> {
            calls.incrementAndGet();
            return vectors(texts.size());
        });
        outbox.queue(V.id());

        writer.write(new Chunk<>(work("e1"), work("e2"), work("e3")));

        assertThat(calls).hasValue(1); // one batch for the whole chunk
        assertThat(store.count()).isEqualTo(3);
        assertThat(rows("SELECT memory_id, status, attempts FROM vector_outbox ORDER BY memory_id"))
            .containsExactly("e1 done 0", "e2 done 0", "e3 done 0");

        writer.write(new Chunk<>(work("e1"))); // a chunk written twice after a crash
        assertThat(store.count()).isEqualTo(3);

        exec("UPDATE entries SET status = 'superseded' WHERE entry_id = 'e2'");
        outbox.queue(V.id());
        writer.write(new Chunk<>(new VectorWork("e2", VectorWork.Op.DELETE, null, null, null, null, null)));
        assertThat(store.count()).isEqualTo(2);
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox WHERE memory_id = 'e2'"))
            .containsExactly("e2 delete done");
    }

    @Test
    void identicalTextsOfAProjectAreEmbeddedOnceAndShareTheVector() throws Exception {
        List<List<String>> batches = new java.util.ArrayList<>();
        VectorOutboxWriter writer = new VectorOutboxWriter(session::connection, store, texts -> {
            batches.add(List.copyOf(texts));
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = new float[] { 0, 0, 0 };
                out[i][batches.size() % 3] = 1; // each batch its own direction
            }
            return out;
        });
        outbox.queue(V.id());

        writer.write(new Chunk<>(work("e1", "/p", "Fix the login"), work("e2", "/p", "Fix the login"),
                work("e3", "/q", "Fix the login")));
        writer.write(new Chunk<>(work("e4", "/p", "Fix the login"), work("e5", "/p", "Write the docs")));

        assertThat(batches).containsExactly(List.of("Fix the login", "Fix the login"), List.of("Write the docs"));
        assertThat(writer.embeddedTexts()).isEqualTo(3);
        assertThat(writer.reusedVectors()).isEqualTo(2);
        assertThat(rows("SELECT memory_id, project, vector::VARCHAR FROM " + store.table() + " ORDER BY memory_id"))
            .containsExactly("e1 /p [0.0, 1.0, 0.0]", "e2 /p [0.0, 1.0, 0.0]", "e3 /q [0.0, 1.0, 0.0]",
                    "e4 /p [0.0, 1.0, 0.0]", "e5 /p [0.0, 0.0, 1.0]");
        assertThat(rows("SELECT memory_id, status FROM vector_outbox WHERE memory_id IN ('e1', 'e2', 'e3')"
                + " ORDER BY memory_id"))
            .containsExactly("e1 done", "e2 done", "e3 done");
    }

    @Test
    void failuresAreRecordedAndRetriedUntilTheLimit() throws Exception {
        BatchEmbedding broken = texts -> {
            throw new IllegalStateException("model exploded");
        };
        VectorOutboxWriter writer = new VectorOutboxWriter(session::connection, store, broken);
        outbox.queue(V.id());
        String pending = "SELECT count(*) FROM (" + VectorOutbox.pendingSql(V.id()) + ")";

        for (int attempt = 1; attempt <= VectorOutbox.MAX_ATTEMPTS; attempt++) {
            assertThat(count(pending)).isEqualTo(3);
            writer.write(new Chunk<>(work("e1"), work("e2"), work("e3")));
            assertThat(rows("SELECT DISTINCT status, attempts, error FROM vector_outbox"))
                .containsExactly("failed " + attempt + " IllegalStateException: model exploded");
        }
        assertThat(count(pending)).isZero(); // given up, still visible as failed
        assertThat(store.count()).isZero();
    }

    @Test
    void aStoreThatFailsFailsTheChunkAndLeavesItsRowsPendingUntouched() throws Exception {
        AtomicInteger upserts = new AtomicInteger();
        VectorStore down = new DuckDbVectorStore(session::connection, V) {
            @Override
            public void upsert(List<VectorRecord> records) {
                if (upserts.incrementAndGet() > 1) {
                    throw new VectorStoreException("milvus vector store: cannot upsert into c: UNAVAILABLE", null);
                }
                super.upsert(records);
            }
        };
        VectorOutboxWriter writer = new VectorOutboxWriter(session::connection, down, texts -> vectors(texts.size()));
        outbox.queue(V.id());

        writer.write(new Chunk<>(work("e1")));

        assertThatThrownBy(() -> writer.write(new Chunk<>(work("e2"), work("e3"))))
            .isInstanceOf(VectorStoreException.class)
            .hasMessage("milvus vector store: cannot upsert into c: UNAVAILABLE");
        assertThat(
                rows("SELECT memory_id, status, attempts, coalesce(error, '-') FROM vector_outbox ORDER BY memory_id"))
            .containsExactly("e1 done 0 -", "e2 pending 0 -", "e3 pending 0 -");
        assertThat(store.count()).isEqualTo(1);
        assertThat(rows(VectorOutbox.pendingSql(V.id()))).containsExactly("e2", "e3");
    }

    private static VectorWork work(String id) {
        return work(id, "/p", "text " + id);
    }

    private static VectorWork work(String id, String project, String text) {
        return new VectorWork(id, VectorWork.Op.UPSERT, text, project, "task", "active", T);
    }

    private static float[][] vectors(int n) {
        float[][] out = new float[n][];
        for (int i = 0; i < n; i++) {
            out[i] = new float[] { 1, 0, 0 };
        }
        return out;
    }

    private void exec(String sql) throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<String> rows(String sql) throws SQLException {
        return DuckRows.rows(session, sql);
    }

}
