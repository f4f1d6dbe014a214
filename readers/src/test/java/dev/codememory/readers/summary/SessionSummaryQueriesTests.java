package dev.codememory.readers.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.db.SchemaMigrator;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.summary.SessionMaterial.Item;
import dev.codememory.config.summary.SessionMaterial;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SessionSummaryQueriesTests {

    private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 5, 9, 0);

    private Connection c;

    @BeforeEach
    void createDatabase() throws SQLException {
        c = DriverManager.getConnection("jdbc:duckdb:");
        new SchemaMigrator().migrate(c);
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void sessionsThatAreOverFullyExtractedAndNotSummarisedAtTheirExtentAreToSummarise() throws SQLException {
        session("ended", "/p", T0, T0.plusHours(1), 10, 10);
        session("followed", "/p", T0.plusHours(2), null, 20, 20);
        session("newest", "/p", T0.plusHours(3), null, 30, 30);
        session("half-extracted", "/q", T0.plusHours(1), T0.plusHours(2), 40, 35);
        session("summarised", "/q", T0.plusHours(3), T0.plusHours(4), 50, 50);
        session("grown", "/q", T0.plusHours(5), T0.plusHours(6), 60, 60);
        session("early", "/r", T0.minusHours(1), T0, 5, 5);
        execute("INSERT INTO stage_marks VALUES ('summary|summarised|50', 'summary', now()),"
                + " ('summary|grown|55', 'summary', now()), ('summary|early|5', 'tasks', now())");

        assertThat(keys(SessionSummaryQueries.SESSIONS_TO_SUMMARIZE))
            .as("oldest first; the newest of /p is not over, a mark of another extent or stage does not count")
            .containsExactly("early", "ended", "followed", "grown");
    }

    @Test
    void materialListsWhatEachSessionLeftBehindEachItemAVerifiedCitedMemory() throws SQLException {
        session("s1", "/p", T0, T0.plusHours(1), 12, 12);
        session("s2", "/p", T0.plusHours(2), null, 20, 20);
        execute("INSERT INTO events VALUES ('ev-last', 'dk', 20, TIMESTAMP '2026-01-05 11:30:00', now(),"
                + " 'Stop', 's2', '/p', '/p', 'hook', '{}', 'x', 'spool', 1, now())");
        // goals: exchanges asked by prompt, oldest first
        entry("goal-2", "exchange", "s1", 2, "Then document it", "verified", "prompt", "ev2");
        entry("goal-1", "exchange", "s1", 1, "Add retries to the client", "verified", "prompt", "ev1");
        entry("reply-only", "exchange", "s1", 3, "Answered", "verified", "reply", "ev3");
        entry("unaligned", "exchange", "s1", 4, "Not verified", "candidate", "prompt", "ev4");
        entry("uncited", "exchange", "s1", 5, "No citation", "verified", "prompt", "ev5");
        // work, fixes, decisions
        entry("commit", "work", "s1", 6, "Add retries to the client", "verified", "tool_input", "ev6");
        entry("fix", "insight", "s1", 7, "Fixed `mvn test`: 1 failure by changing Client.java", "verified",
                "tool_input", "ev7");
        entry("lesson", "insight", "s1", 8, "Turns out the cache was stale", "verified", "reply", "ev8");
        entry("choice", "decision", "s1", 9, "Use exponential backoff", "verified", "reply", "ev9");
        // tasks: one done in s1, one still open whose statement is s1's
        entry("closing", "task", "s1", 10, "Retry the client", "verified", "tool_input", "ev10");
        entry("opening", "task", "s1", 11, "Document the retries", "verified", "tool_input", "ev11");
        execute("INSERT INTO entities VALUES ('task-done', 'task', 'k1', '/p', 'Retry the client', 'done', '{}',"
                + " now()), ('task-open', 'task', 'k2', '/p', 'Document the retries', 'in_progress', '{}', now())");
        execute("INSERT INTO task_events VALUES ('te1', 1, 'task_status_changed', 'task-done',"
                + " '{\"from\":\"IN_PROGRESS\",\"to\":\"DONE\"}', TIMESTAMP '2026-01-05 09:10:00', 'closing'),"
                + " ('te2', 2, 'task_status_changed', 'task-open', '{\"from\":\"PENDING\",\"to\":\"IN_PROGRESS\"}',"
                + " TIMESTAMP '2026-01-05 09:11:00', 'opening')");
        execute("INSERT INTO edges VALUES ('ed1', 'entry', 'opening', 'evidence_of', 'entity', 'task-open', NULL,"
                + " now()), ('ed2', 'entry', 'closing', 'evidence_of', 'entity', 'task-done', NULL, now())");
        // files: Client.java edited twice (cited by the later edit), README once, a
        // failed edit not at all
        observation("edit-1", "s1", "Edit", "/p/src/Client.java", false, 20);
        observation("edit-2", "s1", "Edit", "/p/src/Client.java", false, 25);
        observation("write-1", "s1", "Write", "/p/README.md", false, 30);
        observation("edit-failed", "s1", "Edit", "/p/src/Other.java", true, 35);
        observation("read-1", "s1", "Read", "/p/src/Other.java", false, 36);
        entry("obs-edit-2", "observation", "s1", 25, "Edit /p/src/Client.java", "verified", "tool_input", "edit-2");
        entry("obs-write-1", "observation", "s1", 30, "Write /p/README.md", "verified", "tool_input", "write-1");
        entry("obs-failed", "observation", "s1", 35, "Edit /p/src/Other.java", "verified", "tool_input", "edit-failed");
        entry("s2-goal", "exchange", "s2", 130, "Look at the logs", "verified", "prompt", "ev30");
        cite();
        execute("DELETE FROM citations WHERE memory_id = 'uncited'");
        pageOf("s1", "s2");

        List<SessionMaterial> page = SessionSummaryQueries.material(c);

        assertThat(page).extracting(SessionMaterial::sessionId).containsExactly("s1", "s2");
        SessionMaterial s1 = page.get(0);
        assertThat(List.of(s1.project(), s1.startedAt(), s1.endedAt(), s1.lastSeq())).containsExactly("/p", T0,
                T0.plusHours(1), 12L);
        assertThat(s1.goals()).containsExactly(item("Add retries to the client", "", "goal-1", "prompt", "ev1"),
                item("Then document it", "", "goal-2", "prompt", "ev2"));
        assertThat(s1.work()).containsExactly(item("Add retries to the client", "", "commit", "tool_input", "ev6"));
        assertThat(s1.fixes()).containsExactly(
                item("Fixed `mvn test`: 1 failure by changing Client.java", "", "fix", "tool_input", "ev7"));
        assertThat(s1.decisions()).containsExactly(item("Use exponential backoff", "", "choice", "reply", "ev9"));
        assertThat(s1.completed()).containsExactly(item("Retry the client", "", "closing", "tool_input", "ev10"));
        assertThat(s1.open())
            .containsExactly(item("Document the retries", "in progress", "opening", "tool_input", "ev11"));
        assertThat(s1.changed()).as("most edited first, paths relative to the project")
            .containsExactly(item("src/Client.java", "2 edits", "obs-edit-2", "tool_input", "edit-2"),
                    item("README.md", "", "obs-write-1", "tool_input", "write-1"));
        SessionMaterial s2 = page.get(1);
        assertThat(s2.endedAt()).as("not ended: its last event").isEqualTo(LocalDateTime.of(2026, 1, 5, 11, 30));
        assertThat(s2.goals()).extracting(Item::memoryId).containsExactly("s2-goal");
        assertThat(List.of(s2.work(), s2.completed(), s2.fixes(), s2.decisions(), s2.open(), s2.changed()))
            .allSatisfy(items -> assertThat(items).isEmpty());
    }

    @Test
    void aPageReadsOnlyItsOwnSessionsInItsOrder() throws SQLException {
        session("s1", "/p", T0, T0.plusHours(1), 12, 12);
        session("s2", "/p", T0.plusHours(2), T0.plusHours(3), 20, 20);
        session("s3", "/p", T0.plusHours(4), T0.plusHours(5), 30, 30);
        entry("g1", "exchange", "s1", 1, "First", "verified", "prompt", "ev1");
        entry("g3", "exchange", "s3", 1, "Third", "verified", "prompt", "ev3");
        cite();
        pageOf("s3", "s1");

        assertThat(SessionSummaryQueries.material(c))
            .extracting(SessionMaterial::sessionId, m -> m.goals().get(0).text())
            .containsExactly(tuple("s3", "Third"), tuple("s1", "First"));
    }

    private static Item item(String text, String detail, String memoryId, String field, String eventId) {
        return new Item(text, detail, memoryId, "mem:" + citation(memoryId), new Quote(eventId, field, "quoted"));
    }

    /** A citation derived from the memory id, six characters as real ones are. */
    private static String citation(String memoryId) {
        return String.format("%06x", memoryId.hashCode() & 0xffffff);
    }

    private void cite() throws SQLException {
        List<String> ids = keys("SELECT entry_id FROM entries");
        for (String id : ids) {
            execute("INSERT INTO citations VALUES ('" + citation(id) + "', '" + id + "', now())");
        }
    }

    private void session(String id, String project, LocalDateTime started, LocalDateTime ended, long lastSeq,
            long extractedSeq) throws SQLException {
        execute("INSERT INTO sessions VALUES ('%s', '%s', %s, %s, NULL, NULL, 1, %d, 1, 1, %d)".formatted(id, project,
                timestamp(started), ended == null ? "NULL" : timestamp(ended), lastSeq, extractedSeq));
    }

    /** A verified or candidate entry minutes after T0 with one quote. */
    private void entry(String id, String type, String session, int minute, String title, String stage, String field,
            String eventId) throws SQLException {
        execute("""
                INSERT INTO entries VALUES ('%s', 'cand-%s', '%s', '/p', '%s', %s, '%s', 'body', NULL,
                  '[{"eventId":"%s","field":"%s","text":"quoted"}]', 'key-%s', '%s', 'active', NULL, now())"""
            .formatted(id, id, type, session, timestamp(T0.plusMinutes(minute)), title, eventId, field, id, stage));
    }

    private void observation(String id, String session, String tool, String file, boolean failed, int minute)
            throws SQLException {
        execute(String.format(
                "INSERT INTO observations VALUES ('%s', '%s', '/p', '%s', '[\"%s\"]', NULL, %s, NULL,"
                        + " NULL, %s, '{}', '{}')",
                id, session, tool, file, failed, timestamp(T0.plusMinutes(minute))));
    }

    private static String timestamp(LocalDateTime t) {
        return "TIMESTAMP '" + t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + "'";
    }

    /** The page's sessions in the temporary table the reader fills, in this order. */
    private void pageOf(String... sessions) throws SQLException {
        execute("CREATE OR REPLACE TEMP TABLE pending_keys (ord INTEGER, key VARCHAR, ts TIMESTAMP)");
        for (int i = 0; i < sessions.length; i++) {
            execute("INSERT INTO pending_keys VALUES (%d, '%s', NULL)".formatted(i, sessions[i]));
        }
    }

    private List<String> keys(String sql) throws SQLException {
        List<String> keys = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
        }
        return keys;
    }

    private void execute(String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
