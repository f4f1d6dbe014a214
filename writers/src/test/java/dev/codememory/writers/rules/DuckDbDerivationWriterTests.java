package dev.codememory.writers.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.db.DuckRows;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbDerivationWriterTests {

    private static final List<String> DERIVED = List.of("sessions", "turns", "observations", "candidates",
            "graduation_rejects", "evidence_spans", "entries", "task_events", "entities", "entity_aliases", "edges",
            "stage_marks");

    private static final List<String> KEPT = List.of("events", "citations", "vector_outbox", "injections");

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbDerivationWriter writer;

    @BeforeEach
    void open() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        writer = new DuckDbDerivationWriter(session::connection);
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO events VALUES ('ev1', 'k1', 1, TIMESTAMP '2026-03-02 09:00:00', "
                    + "TIMESTAMP '2026-03-02 09:00:00', 'UserPromptSubmit', 's', 'p', '/p', 'hook', '{}', 'c', 'f', 1, now())");
            st.execute(
                    "INSERT INTO sessions VALUES ('s', 'p', TIMESTAMP '2026-03-02 09:00:00', NULL, NULL, NULL, 1, 1, 1, 0, 1)");
            st.execute(
                    "INSERT INTO turns VALUES ('t', 's', 'p', 'ev1', 'hi', NULL, NULL, NULL, TIMESTAMP '2026-03-02 09:00:00', NULL)");
            st.execute(
                    "INSERT INTO candidates VALUES ('cand', 'task', 's', 'p', now(), 'The CLI', 'b', NULL, '[]', 'rules-v1', now())");
            st.execute(
                    "INSERT INTO entries VALUES ('ent', 'cand', 'task', 'p', 's', now(), 'The CLI', 'b', NULL, '[]', 'k',"
                            + " 'verified', 'active', NULL, now())");
            st.execute("INSERT INTO evidence_spans VALUES ('ent', 0, 'ev1', 'prompt', 0, 2, 1.0, 'exact', 'h')");
            st.execute("INSERT INTO entities VALUES ('task_1', 'task', 'k', 'p', 'The CLI', 'blocked', '{}', now())");
            st.execute("INSERT INTO entity_aliases VALUES ('task', 'k', 'task_1', TRUE)");
            st.execute(
                    "INSERT INTO edges VALUES ('edge', 'entry', 'ent', 'evidence_of', 'entity', 'task_1', NULL, now())");
            st.execute("INSERT INTO task_events VALUES ('d', 1, 'task_created', 'task_1', '{}', now(), 'ent')");
            st.execute("INSERT INTO stage_marks VALUES ('ent', 'tasks', now())");
            st.execute("INSERT INTO graduation_rejects VALUES ('cand2', 'validate', 'blank title', NULL, now())");
            st.execute(
                    "INSERT INTO observations VALUES ('ev2', 's', 'p', 'Bash', '[]', 'ls', false, NULL, NULL, now(), NULL, NULL)");
            st.execute("INSERT INTO citations VALUES ('AbCdEf', 'ent', now())");
            st.execute("INSERT INTO vector_outbox VALUES ('ent', 'v', 'upsert', 'done', 1, NULL, now())");
            st.execute(
                    "INSERT INTO injections VALUES ('i', 's', 'ev1', 'SessionStart', 'session_start', 10, now(), 'f', 1, now())");
        }
    }

    @AfterEach
    void close() {
        session.close();
    }

    @Test
    void rowsDerivedUnderOtherRulesAreClearedAndTheVersionRecorded() throws Exception {
        int cleared = writer.resetUnless("graduation-2");

        assertThat(cleared).isEqualTo(DERIVED.size());
        for (String table : DERIVED) {
            assertThat(DuckRows.rows(session, "SELECT count(*) FROM " + table)).as(table).containsExactly("0");
        }
        for (String table : KEPT) {
            assertThat(DuckRows.rows(session, "SELECT count(*) FROM " + table)).as(table).containsExactly("1");
        }
        assertThat(DuckRows.rows(session, "SELECT component, version FROM derivations"))
            .containsExactly("graduation graduation-2");
    }

    @Test
    void rowsOfTheSameRulesAreKept() throws Exception {
        writer.resetUnless("graduation-2");
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO sessions VALUES ('s', 'p', TIMESTAMP '2026-03-02 09:00:00', NULL, NULL, NULL, 1, 1, 1, 0, 1)");
        }

        assertThat(writer.resetUnless("graduation-2")).isZero();
        assertThat(DuckRows.rows(session, "SELECT count(*) FROM sessions")).containsExactly("1");
        assertThat(writer.resetUnless("graduation-3")).isEqualTo(1);
        assertThat(DuckRows.rows(session, "SELECT version FROM derivations")).containsExactly("graduation-3");
    }

}
