package dev.codememory.readers.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.db.DuckDb;
import dev.codememory.readers.context.SessionStartQueries.LastSession;
import dev.codememory.readers.context.SessionStartQueries.TaskLine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionStartQueriesTests {

    private static final LocalDateTime LAST_END = LocalDateTime.parse("2026-03-10T18:00:00");

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private Connection c;

    @BeforeEach
    void open() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        c = session.connection();
        summary("sum-1", "s1", "2026-03-05 18:00:00", "active");
        summary("sum-2", "s2", "2026-03-10 18:00:00", "active");
        summary("sum-2-old", "s2", "2026-03-10 12:00:00", "superseded");
        task("t1", "/p", "Rate-limit the login endpoint", "pending", "HIGH", "s2", "2026-03-10 09:00:00");
        task("t2", "/p", "Validate the email field", "in_progress", "MEDIUM", "s2", "2026-03-10 08:00:00");
        task("t3", "/p", "Write the signup e2e test", "pending", "LOW", "s1", "2026-03-05 10:00:00");
        task("t4", "/p", "Profile the search query", "pending", "HIGH", "s0", "2026-02-01 10:00:00");
        task("t5", "/p", "Add the login form", "done", "HIGH", "s2", "2026-03-10 10:00:00");
        task("t6", "/other", "Ship the mobile build", "pending", "HIGH", "s9", "2026-03-10 10:00:00");
    }

    @AfterEach
    void close() throws Exception {
        c.close();
        session.close();
    }

    @Test
    void theLastSessionIsTheNewestActiveSummaryOfAnotherSession() throws Exception {
        assertThat(SessionStartQueries.lastSession(c, "/p", "s3"))
            .contains(new LastSession("sum-2", "body of sum-2", "s2", LAST_END));
        assertThat(SessionStartQueries.lastSession(c, "/p", "s2")).map(LastSession::memoryId).contains("sum-1");
        assertThat(SessionStartQueries.lastSession(c, "/nowhere", "s3")).isEmpty();
    }

    @Test
    void openTasksLeftByTheLastSessionComeFirstAndStaleOnesAreNotShown() throws Exception {
        assertThat(SessionStartQueries.openTasks(c, "/p", "s2", LAST_END.minusDays(14), 8))
            .extracting(TaskLine::title, TaskLine::status, TaskLine::memoryId)
            .containsExactly(tuple("Validate the email field", "in_progress", "ent-t2"),
                    tuple("Rate-limit the login endpoint", "pending", "ent-t1"),
                    tuple("Write the signup e2e test", "pending", "ent-t3"));
        assertThat(SessionStartQueries.openTasks(c, "/p", "s2", LAST_END.minusDays(60), 8)).extracting(TaskLine::title)
            .containsExactly("Validate the email field", "Rate-limit the login endpoint", "Profile the search query",
                    "Write the signup e2e test");
        assertThat(SessionStartQueries.openTasks(c, "/p", "s2", LAST_END.minusDays(60), 2)).hasSize(2);
    }

    private void summary(String id, String session, String ts, String status) throws Exception {
        exec("INSERT INTO entries VALUES ('" + id + "', '" + id + "', 'summary', '/p', '" + session + "', TIMESTAMP '"
                + ts + "', 'Session', 'body of " + id + "', NULL, '[]', 'k" + id + "', 'verified', '" + status
                + "', NULL, now())");
    }

    private void task(String id, String project, String title, String status, String priority, String session,
            String ts) throws Exception {
        exec("INSERT INTO entities VALUES ('" + id + "', 'task', 'k" + id + "', '" + project + "', '" + title + "', '"
                + status + "', '{\"priority\":\"" + priority + "\"}', now())");
        exec("INSERT INTO entries VALUES ('ent-" + id + "', 'c', 'task', '" + project + "', '" + session
                + "', TIMESTAMP '" + ts + "', '" + title + "', 'b', NULL, '[]', 'ke" + id
                + "', 'verified', 'active', NULL, now())");
        exec("INSERT INTO edges VALUES ('edge-" + id + "', 'entry', 'ent-" + id + "', 'evidence_of', 'entity', '" + id
                + "', NULL, now())");
    }

    private void exec(String sql) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

}
