package dev.codememory.readers.workingset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.readers.workingset.WorkingSetQueries.CitedEvent;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkingSetQueriesTests {

    private static final LocalDateTime T0 = LocalDateTime.parse("2026-03-10T09:00:00");

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private Connection c;

    private int seq;

    @BeforeEach
    void open() throws Exception {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        c = session.connection();
        event("ev_a0000001", "s1", T0.minusHours(30), "UserPromptSubmit", "{\"prompt\":\"old goal\"}");
        event("ev_a0000002", "s1", T0, "UserPromptSubmit", "{\"prompt\":\"goal\"}");
        event("ev_a0000003", "s1", T0.plusMinutes(1), "PostToolUse", "{\"tool_name\":\"Read\"}");
        event("ev_a0000004", "s1", T0.plusMinutes(2), "PostToolUse", "{\"tool_name\":\"Edit\"}");
        event("ev_a0000005", "s1", T0.plusMinutes(3), "Stop", "{}");
        event("ev_a0000006", "s1", T0.plusMinutes(4), "PostToolUseFailure", "{\"tool_name\":\"Bash\"}");
        event("ev_b0000001", "s2", T0.plusHours(1), "SessionStart", "{\"source\":\"startup\"}");
        event("ev_c0000001", "s3", T0.plusHours(2), "UserPromptSubmit", "{\"prompt\":\"elsewhere\"}", "/q");
    }

    @AfterEach
    void close() throws Exception {
        c.close();
        session.close();
    }

    @Test
    void sessionEventsAreTheNewestPromptsAndWorkToolCallsHoweverOld() throws Exception {
        assertThat(WorkingSetQueries.sessionEvents(c, "s1", 100)).extracting(StoredEvent::eventId)
            .containsExactly("ev_a0000001", "ev_a0000002", "ev_a0000004", "ev_a0000006");
        assertThat(WorkingSetQueries.sessionEvents(c, "s1", 2)).extracting(StoredEvent::eventId)
            .containsExactly("ev_a0000004", "ev_a0000006");
        assertThat(WorkingSetQueries.sessionEvents(c, "nobody", 100)).isEmpty();
    }

    @Test
    void previousSessionIsTheProjectsNewestOtherSessionThatDidWorkSince() throws Exception {
        // s2 only started: it did nothing a working set could show
        assertThat(WorkingSetQueries.previousSession(c, "/p", "s4", T0.minusDays(1))).contains("s1");
        assertThat(WorkingSetQueries.previousSession(c, "/p", "s2", T0.minusDays(1))).contains("s1");
        assertThat(WorkingSetQueries.previousSession(c, "/p", "s4", T0.plusHours(3))).isEmpty();
    }

    @Test
    void newestSessionIsBoundedByAgeOnlyWhenAsked() throws Exception {
        assertThat(WorkingSetQueries.newestSession(c, "/p", "s4", null, null))
            .contains(new WorkingSetQueries.SessionSeen("s1", T0.plusMinutes(4)));
        assertThat(WorkingSetQueries.newestSession(c, "/p", "s4", null, T0.plusMinutes(1)))
            .contains(new WorkingSetQueries.SessionSeen("s1", T0.plusMinutes(1)));
        assertThat(WorkingSetQueries.newestSession(c, "/p", "s4", T0.plusMinutes(5), null)).isEmpty();
        assertThat(WorkingSetQueries.newestSession(c, "/p", "s4", null, T0.minusDays(2))).isEmpty();
    }

    @Test
    void eventsByPrefixFindTheCitedEvent() throws Exception {
        assertThat(WorkingSetQueries.eventsByPrefix(c, "ev_a0000004"))
            .extracting(CitedEvent::eventId, CitedEvent::sessionId, CitedEvent::project, CitedEvent::ts,
                    CitedEvent::eventType, CitedEvent::payloadJson)
            .containsExactly(
                    tuple("ev_a0000004", "s1", "/p", T0.plusMinutes(2), "PostToolUse", "{\"tool_name\":\"Edit\"}"));
        assertThat(WorkingSetQueries.eventsByPrefix(c, "ev_a000000")).hasSize(6);
        assertThat(WorkingSetQueries.eventsByPrefix(c, "ev_ffffffff")).isEmpty();
    }

    private void event(String id, String sessionId, LocalDateTime ts, String type, String payload) throws Exception {
        event(id, sessionId, ts, type, payload, "/p");
    }

    private void event(String id, String sessionId, LocalDateTime ts, String type, String payload, String project)
            throws Exception {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project, cwd,
                                    source, payload, checksum, spool_file, spool_line)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'hook', ?, 'x', 'spool', ?)""")) {
            seq++;
            ps.setString(1, id);
            ps.setString(2, "k" + id);
            ps.setInt(3, seq);
            ps.setObject(4, ts);
            ps.setObject(5, ts);
            ps.setString(6, type);
            ps.setString(7, sessionId);
            ps.setString(8, project);
            ps.setString(9, project);
            ps.setString(10, payload);
            ps.setInt(11, seq);
            ps.executeUpdate();
        }
    }

}
