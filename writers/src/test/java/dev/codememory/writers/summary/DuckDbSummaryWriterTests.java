package dev.codememory.writers.summary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.db.DuckRows;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.summary.SessionSummary;
import dev.codememory.config.summary.SummaryOutcome;
import dev.codememory.writers.graduation.Edges;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;

class DuckDbSummaryWriterTests {

    private static final LocalDateTime T = LocalDateTime.of(2026, 11, 20, 10, 0);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbSummaryWriter writer;

    @BeforeEach
    void open() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        writer = new DuckDbSummaryWriter(session::connection);
        for (String m : new String[] { "m1", "m2", "m3" }) {
            exec("INSERT INTO entries VALUES ('" + m + "', 'c" + m
                    + "', 'fact', '/p', 's1', TIMESTAMP '2026-11-20 09:00:00'," + " 'title " + m + "', 'body " + m
                    + "', NULL, '[]', 'k" + m + "', 'verified', 'active', NULL, now())");
            exec("INSERT INTO evidence_spans VALUES ('" + m + "', 0, 'ev_" + m + "', 'prompt', 3, 9, 1.0, 'exact', 'h"
                    + m + "')");
            exec("INSERT INTO evidence_spans VALUES ('" + m + "', 1, 'ev_" + m + "b', 'reply', 0, 4, 0.9, 'fuzzy', 'x"
                    + m + "')");
        }
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void writesSummariesWithCopiedSpansAndEdgesAndMarksEverySessionOnce() throws Exception {
        Chunk<SummaryOutcome> chunk = new Chunk<>(
                List.of(new SummaryOutcome("s1", 40, summary("sum_a", "s1", List.of("m2", "m1"))),
                        new SummaryOutcome("s2", 7, null)));

        writer.write(chunk);
        writer.write(chunk); // a chunk written twice changes nothing

        assertThat(rows("SELECT entry_id, entry_type, session_id, stage, status, title FROM entries"
                + " WHERE entry_type = 'summary'"))
            .containsExactly("sum_a summary s1 verified active Session s1");
        assertThat(
                rows("SELECT entry_id, quote_index, event_id, field, span_start, span_end, method FROM evidence_spans"
                        + " WHERE entry_id = 'sum_a' ORDER BY quote_index"))
            .containsExactly("sum_a 0 ev_m2 prompt 3 9 exact", "sum_a 1 ev_m1 prompt 3 9 exact");
        assertThat(rows("SELECT edge_id, src_id, rel_type, dst_id FROM edges ORDER BY dst_id")).containsExactly(
                Edges.edgeId("sum_a", "summarizes", "m1") + " sum_a summarizes m1",
                Edges.edgeId("sum_a", "summarizes", "m2") + " sum_a summarizes m2");
        assertThat(rows("SELECT subject_id, stage FROM stage_marks ORDER BY subject_id"))
            .containsExactly("summary|s1|40 summary", "summary|s2|7 summary");
    }

    @Test
    void aNewerSummaryOfTheSessionSupersedesTheEarlierOne() throws Exception {
        writer.write(new Chunk<>(List.of(new SummaryOutcome("s1", 40, summary("sum_a", "s1", List.of("m1"))))));

        writer.write(new Chunk<>(List.of(new SummaryOutcome("s1", 55, summary("sum_b", "s1", List.of("m1", "m3"))))));

        assertThat(rows("SELECT entry_id, status, superseded_by FROM entries WHERE entry_type = 'summary'"
                + " ORDER BY entry_id"))
            .containsExactly("sum_a superseded sum_b", "sum_b active null");
        assertThat(rows("SELECT src_id, rel_type, dst_id FROM edges WHERE rel_type = 'supersedes'"))
            .containsExactly("sum_b supersedes sum_a");
        assertThat(rows("SELECT count(*) FROM edges WHERE rel_type = 'summarizes'")).containsExactly("3");
    }

    @Test
    void aForgottenSummaryIsNotWrittenAgain() throws Exception {
        exec("INSERT INTO forgotten (kind, key, forget_id, forgotten_at) VALUES ('entry', 'sum_a', 'f1', now())");

        writer.write(new Chunk<>(List.of(new SummaryOutcome("s1", 40, summary("sum_a", "s1", List.of("m1"))))));

        assertThat(rows("SELECT count(*) FROM entries WHERE entry_id = 'sum_a'")).containsExactly("0");
        assertThat(rows("SELECT subject_id FROM stage_marks")).containsExactly("summary|s1|40");
    }

    private static SessionSummary summary(String id, String sessionId, List<String> summarizes) {
        return new SessionSummary(id, sessionId, "/p", T, 40, "Session " + sessionId,
                "Session " + sessionId + ": did things.", "key_" + id, summarizes,
                summarizes.stream().map(m -> new Quote("ev_" + m, "prompt", "quote " + m)).toList());
    }

    private void exec(String sql) throws Exception {
        try (var c = session.connection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private List<String> rows(String sql) throws SQLException {
        return DuckRows.rows(session, sql);
    }

}
