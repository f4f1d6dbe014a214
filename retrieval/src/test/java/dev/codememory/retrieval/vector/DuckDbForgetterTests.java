package dev.codememory.retrieval.vector;

import dev.codememory.writers.forget.DuckDbForgetter;
import dev.codememory.writers.forget.Forgetting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.db.DuckRows;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.writers.citation.DuckDbCitationWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting on a real DuckDB file: what goes, what stays, and the tombstone left behind.
 */
class DuckDbForgetterTests {

    private static final EmbeddingVersion VERSION = new EmbeddingVersion("test-model", 4, "mean", 16);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbForgetter forgetter;

    private DuckDbVectorStore vectors;

    @BeforeEach
    void fill() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        forgetter = new DuckDbForgetter(session::connection);
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(event("e1", 1, "s-1", "2026-01-10 09:00:00", "UserPromptSubmit",
                    "{\"prompt\":\"Deploy the \\\"shop\\\" to staging\"}"));
            st.execute(
                    event("e2", 2, "s-1", "2026-01-10 09:01:00", "Stop", "{\"last_assistant_message\":\"Deployed.\"}"));
            st.execute(event("e3", 3, "s-2", "2026-02-10 09:00:00", "UserPromptSubmit",
                    "{\"prompt\":\"Use PostgreSQL for the invoices\"}"));
            st.execute(event("e4", 4, "s-2", "2026-02-10 09:01:00", "Stop",
                    "{\"last_assistant_message\":\"Done, with row locks.\"}"));
            st.execute("""
                    INSERT INTO sessions (session_id, project, started_at, ended_at, first_seq, last_seq, prompt_count,
                                          tool_count, extracted_seq)
                    VALUES ('s-1', '/p', '2026-01-10 09:00:00', NULL, 1, 2, 1, 0, 2),
                           ('s-2', '/p', '2026-02-10 09:00:00', NULL, 3, 4, 1, 0, 4)""");
            st.execute(
                    """
                            INSERT INTO turns VALUES
                              ('t1', 's-1', '/p', 'e1', 'Deploy the "shop" to staging', 'e2', 'Deployed.', 'stop',
                               '2026-01-10 09:00:00', '2026-01-10 09:01:00'),
                              ('t2', 's-2', '/p', 'e3', 'Use PostgreSQL for the invoices', 'e4', 'Done, with row locks.', 'stop',
                               '2026-02-10 09:00:00', '2026-02-10 09:01:00')""");
            st.execute(
                    """
                            INSERT INTO candidates VALUES
                              ('c1', 'task', 's-1', '/p', '2026-01-10 09:00:00', 'Deploy the shop to staging', 'Deploy the shop',
                               NULL, '[{"eventId":"e1","field":"prompt","text":"Deploy"}]', 'rules', now()),
                              ('c2', 'decision', 's-2', '/p', '2026-02-10 09:00:00', 'Use PostgreSQL for the invoices',
                               'Use PostgreSQL', NULL, '[{"eventId":"e3","field":"prompt","text":"Use PostgreSQL"}]', 'rules', now()),
                              ('c3', 'decision', 's-1', '/p', '2026-01-10 09:01:00', 'Use PostgreSQL for the invoices',
                               'Use PostgreSQL', NULL, '[{"eventId":"e2","field":"reply","text":"Deployed"}]', 'rules', now())""");
            st.execute(
                    """
                            INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                                 body, task_json, quotes_json, canonical_key, stage, status, created_at)
                            VALUES ('m1', 'c1', 'task', '/p', 's-1', '2026-01-10 09:00:00', 'Deploy the shop to staging',
                                    'Deploy the shop', NULL, '[{"eventId":"e1","field":"prompt","text":"Deploy"}]', 'k1',
                                    'verified', 'active', now()),
                                   ('m2', 'c2', 'decision', '/p', 's-2', '2026-02-10 09:00:00', 'Use PostgreSQL for the invoices',
                                    'Use PostgreSQL', NULL, '[{"eventId":"e3","field":"prompt","text":"Use PostgreSQL"}]', 'k2',
                                    'verified', 'active', now())""");
            st.execute(
                    "INSERT INTO edges VALUES ('edge_dup', 'candidate', 'c3', 'duplicate_of', 'entry', 'm2', NULL, now()),"
                            + " ('edge_ev', 'entry', 'm1', 'evidence_of', 'task', 'task_1', NULL, now())");
            st.execute("INSERT INTO evidence_spans VALUES ('m1', 0, 'e1', 'prompt', 0, 6, 1.0, 'exact', 'h1'),"
                    + " ('m2', 0, 'e3', 'prompt', 0, 14, 1.0, 'exact', 'h2')");
            st.execute(
                    "INSERT INTO task_events VALUES ('te1', 1, 'task_created', 'task_1', '{}', '2026-01-10 09:00:00', 'm1')");
            st.execute(
                    "INSERT INTO entities VALUES ('task_1', 'task', 'deploy shop', '/p', 'Deploy the shop to staging',"
                            + " 'pending', '{}', now())");
            st.execute("INSERT INTO entity_aliases VALUES ('task', 'deploy shop', 'task_1', TRUE)");
            st.execute("INSERT INTO stage_marks VALUES ('m1', 'tasks', now()), ('m2', 'merge', now())");
            st.execute(
                    "INSERT INTO vector_outbox VALUES ('m1', '" + VERSION.id() + "', 'upsert', 'done', 1, NULL, now()),"
                            + " ('m2', '" + VERSION.id() + "', 'upsert', 'done', 1, NULL, now())");
        }
        new DuckDbCitationWriter(session::connection).assignMissing();
        vectors = new DuckDbVectorStore(session::connection, VERSION);
        vectors.ensureReady();
        vectors.upsert(List.of(vector("m1"), vector("m2")));
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void forgettingAMemoryRemovesItsDerivedRowsAndTombstonesItButKeepsTheEvents() throws Exception {
        DuckDbForgetter.Outcome outcome = forgetter.forget(Forgetting.memory("m1"), "fg_1");
        vectors.delete(outcome.memoryIds());
        forgetter.dropVectors(outcome.memoryIds(), VERSION.id());

        assertThat(outcome.memoryIds()).containsExactly("m1");
        assertThat(outcome.counts()).isEqualTo(new DuckDbForgetter.Counts(0, 0, 1, 1, 1, 0, 0, 1, 1, 0));
        assertThat(rows("SELECT entry_id FROM entries")).containsExactly("m2");
        assertThat(rows("SELECT candidate_id FROM candidates ORDER BY 1")).containsExactly("c2", "c3");
        assertThat(rows("SELECT memory_id FROM citations")).containsExactly("m2");
        assertThat(rows("SELECT entry_id FROM evidence_spans")).containsExactly("m2");
        assertThat(rows("SELECT edge_id FROM edges")).containsExactly("edge_dup");
        assertThat(rows("SELECT count(*) FROM task_events")).containsExactly("0");
        assertThat(rows("SELECT count(*) FROM entities")).containsExactly("0");
        assertThat(rows("SELECT count(*) FROM entity_aliases")).containsExactly("0");
        assertThat(rows("SELECT subject_id FROM stage_marks")).containsExactly("m2");
        assertThat(rows("SELECT memory_id FROM " + vectors.table())).containsExactly("m2");
        assertThat(rows("SELECT memory_id, op, status FROM vector_outbox")).containsExactly("m2 upsert done");
        assertThat(rows("SELECT count(*) FROM events")).containsExactly("4");
        assertThat(rows("SELECT kind, key, forget_id FROM forgotten ORDER BY kind, key"))
            .containsExactly("candidate c1 fg_1", "entry m1 fg_1");
    }

    @Test
    void previewCountsWhatASessionCoversAndChangesNothing() throws Exception {
        String before = rows("SELECT (SELECT count(*) FROM events) || '/' || (SELECT count(*) FROM entries) || '/'"
                + " || (SELECT count(*) FROM forgotten)")
            .get(0);

        DuckDbForgetter.Outcome outcome = forgetter.preview(Forgetting.session("s-1"));

        // s-1: two events, its session, m1 with its task, c1 and c3 (a duplicate of m2,
        // which rests on s-2), one turn
        assertThat(outcome.counts()).isEqualTo(new DuckDbForgetter.Counts(2, 1, 1, 1, 2, 1, 0, 1, 1, 0));
        assertThat(outcome.memoryIds()).containsExactly("m1");
        assertThat(rows("SELECT (SELECT count(*) FROM events) || '/' || (SELECT count(*) FROM entries) || '/'"
                + " || (SELECT count(*) FROM forgotten)"))
            .containsExactly(before);
    }

    @Test
    void forgettingASessionRemovesItsEventsAndTombstonesTheirKeysAndTheSession() throws Exception {
        forgetter.forget(Forgetting.session("s-1"), "fg_2");

        assertThat(rows("SELECT event_id FROM events ORDER BY seq")).containsExactly("e3", "e4");
        assertThat(rows("SELECT session_id FROM sessions")).containsExactly("s-2");
        assertThat(rows("SELECT turn_id FROM turns")).containsExactly("t2");
        assertThat(rows("SELECT entry_id FROM entries")).containsExactly("m2");
        assertThat(rows("SELECT candidate_id FROM candidates")).containsExactly("c2");
        assertThat(rows("SELECT count(*) FROM edges WHERE rel_type = 'duplicate_of'")).containsExactly("0");
        assertThat(rows("SELECT kind, key FROM forgotten ORDER BY kind, key")).containsExactly("candidate c1",
                "candidate c3", "entry m1", "event ke1", "event ke2", "session s-1");
    }

    @Test
    void forgettingAPhraseFindsItInEventsEscapedAsJsonAndInMemoriesWhateverTheCase() throws Exception {
        DuckDbForgetter.Outcome quoted = forgetter.forget(Forgetting.match("the \"SHOP\" to"), "fg_3");

        assertThat(quoted.counts().events()).isEqualTo(1);
        assertThat(rows("SELECT event_id FROM events ORDER BY seq")).containsExactly("e2", "e3", "e4");
        assertThat(rows("SELECT turn_id FROM turns")).containsExactly("t2");
        assertThat(rows("SELECT entry_id FROM entries")).containsExactly("m2"); // m1
                                                                                // quoted
                                                                                // e1

        DuckDbForgetter.Outcome postgres = forgetter.forget(Forgetting.match("postgresql"), "fg_4");

        assertThat(postgres.counts().events()).isEqualTo(1);
        assertThat(rows("SELECT event_id FROM events ORDER BY seq")).containsExactly("e2", "e4");
        assertThat(rows("SELECT count(*) FROM entries")).containsExactly("0");
        assertThat(rows("SELECT session_id FROM sessions ORDER BY 1")).containsExactly("s-1", "s-2"); // events
                                                                                                      // remain
        assertThat(rows("SELECT count(*) FROM forgotten WHERE kind = 'session'")).containsExactly("0");
    }

    /**
     * What the distiller proved about a session quotes its words: forgetting a phrase it
     * holds, a memory of the session, or the session, clears those claims; another
     * session's stay.
     */
    @Test
    void forgettingClearsTheDistillersProvenClaimsThatHoldIt() throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(
                    """
                            INSERT INTO distill_answers VALUES
                              ('s-1', 'distill-1', 'answered', '[{"text":"We ship to Staging-EU first"}]', '{}', 1, NULL, NULL, now()),
                              ('s-2', 'distill-1', 'answered', '[{"text":"Row locks keep invoices apart"}]', '{}', 1, NULL, NULL, now()),
                              ('s-3', 'distill-1', 'answered', '[{"text":"The cache is warmed at start"}]', '{}', 1, NULL, NULL, now())""");
        }

        forgetter.forget(Forgetting.match("staging-eu"), "fg_8");
        assertThat(rows("SELECT session_id FROM distill_answers WHERE claims_json IS NULL")).containsExactly("s-1");

        forgetter.forget(Forgetting.memory("m2"), "fg_9");
        assertThat(rows("SELECT session_id FROM distill_answers WHERE claims_json IS NULL ORDER BY 1"))
            .containsExactly("s-1", "s-2");
        assertThat(rows("SELECT claims_json FROM distill_answers WHERE session_id = 's-3'"))
            .containsExactly("[{\"text\":\"The cache is warmed at start\"}]");
    }

    @Test
    void forgettingEverythingBeforeADateTakesTheSessionsItEmpties() throws Exception {
        forgetter.forget(Forgetting.before(LocalDateTime.of(2026, 2, 1, 0, 0)), "fg_5");

        assertThat(rows("SELECT event_id FROM events ORDER BY seq")).containsExactly("e3", "e4");
        assertThat(rows("SELECT session_id FROM sessions")).containsExactly("s-2");
        assertThat(rows("SELECT entry_id FROM entries")).containsExactly("m2");
        assertThat(rows("SELECT count(*) FROM forgotten WHERE kind = 'session'")).containsExactly("0");
    }

    @Test
    void aSummaryNamingAForgottenMemoryGoesWithoutATombstoneSoItIsComposedAgain() throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(
                    """
                            INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                                 body, task_json, quotes_json, canonical_key, stage, status, created_at)
                            VALUES ('m9', 'm9', 'summary', '/p', 's-2', '2026-02-10 09:02:00', 'Session 2026-02-10',
                                    'Decided: Use PostgreSQL for the invoices', NULL, '[]', 'k9', 'verified', 'active', now())""");
            st.execute(
                    "INSERT INTO edges VALUES ('edge_sum', 'entry', 'm9', 'summarizes', 'entry', 'm2', NULL, now())");
            st.execute(
                    "INSERT INTO stage_marks VALUES ('summary|s-2|4', 'summary', now()), ('summary|s-1|2', 'summary', now())");
        }

        DuckDbForgetter.Outcome outcome = forgetter.forget(Forgetting.memory("m2"), "fg_6");

        assertThat(outcome.counts().memories()).isEqualTo(1);
        assertThat(outcome.counts().summariesToCompose()).isEqualTo(1);
        assertThat(outcome.memoryIds()).containsExactly("m2", "m9");
        assertThat(rows("SELECT entry_id FROM entries")).containsExactly("m1");
        assertThat(rows("SELECT subject_id FROM stage_marks WHERE stage = 'summary'")).containsExactly("summary|s-1|2");
        assertThat(rows("SELECT kind, key FROM forgotten WHERE kind = 'entry'")).containsExactly("entry m2");
    }

    @Test
    void onlyASummaryTheUserNamesIsTombstoned() throws Exception {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(
                    """
                            INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                                 body, task_json, quotes_json, canonical_key, stage, status, created_at)
                            VALUES ('m9', 'm9', 'summary', '/p', 's-2', '2026-02-10 09:02:00', 'Session 2026-02-10',
                                    'Decided: Use PostgreSQL for the invoices', NULL, '[]', 'k9', 'verified', 'active', now())""");
        }

        DuckDbForgetter.Outcome named = forgetter.forget(Forgetting.memory("m9"), "fg_7");

        assertThat(named.counts().memories()).isEqualTo(1);
        assertThat(named.counts().summariesToCompose()).isZero();
        assertThat(rows("SELECT kind, key FROM forgotten ORDER BY kind")).containsExactly("candidate m9", "entry m9");
    }

    private List<String> rows(String sql) throws Exception {
        return DuckRows.rows(session, sql);
    }

    private static VectorRecord vector(String id) {
        return new VectorRecord(id, new float[] { 1, 0, 0, 0 }, "/p", "decision", "active",
                LocalDateTime.of(2026, 1, 1, 0, 0));
    }

    private static String event(String id, int seq, String sessionId, String ts, String type, String payload) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '" + ts + "', '" + ts + "', '" + type + "', '" + sessionId + "', '/p', 'hook', '"
                + payload.replace("'", "''") + "', 'c', 'f', " + seq + ")";
    }

}
