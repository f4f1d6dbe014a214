package dev.codememory.readers.injection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.SchemaMigrator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InjectionQueriesTests {

    private static final LocalDateTime T1 = LocalDateTime.of(2025, 6, 1, 10, 0, 0, 123_456_000);

    private static final LocalDateTime T2 = LocalDateTime.of(2025, 6, 1, 10, 5);

    private static final LocalDateTime T3 = LocalDateTime.of(2025, 6, 2, 9, 0);

    private Connection c;

    @BeforeEach
    void createDatabase() throws SQLException {
        c = DriverManager.getConnection("jdbc:duckdb:");
        new SchemaMigrator().migrate(c);
        try (Statement st = c.createStatement()) {
            // listed out of time order: the later injection of s1 first
            st.execute(injection("in_b", "s1", "ev_2", "UserPromptSubmit", "suggested", 300, T2, 2));
            st.execute(injection("in_a", "s1", "ev_1", "UserPromptSubmit", "high", 812, T1, 1));
            st.execute(injection("in_c", "s2", null, "SessionStart", "session_start", 120, T3, 3));
            st.execute(injection("in_d", "s1", "ev_3", "UserPromptSubmit", "none", 0, T3, 4)); // carried
                                                                                               // nothing
            st.execute("INSERT INTO injection_items VALUES ('in_a', 2, 'mem:bbbbbb', 'm-2', 0.80),"
                    + " ('in_a', 1, 'mem:aaaaaa', 'm-1', 0.95), ('in_b', 1, 'mem:bbbbbb', 'm-2', 0.77),"
                    + " ('in_c', 1, 'mem:aaaaaa', 'm-1', 0.5)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void forMemoryListsEveryInjectionOfTheMemoryOldestFirst() throws SQLException {
        assertThat(InjectionQueries.forMemory(c, "m-2")).containsExactly(
                new InjectedMemory("in_a", T1, "s1", "ev_1", "UserPromptSubmit", "high", 812, 2, "mem:bbbbbb", "m-2",
                        0.80),
                new InjectedMemory("in_b", T2, "s1", "ev_2", "UserPromptSubmit", "suggested", 300, 1, "mem:bbbbbb",
                        "m-2", 0.77));
        assertThat(InjectionQueries.forMemory(c, "m-1")).containsExactly(
                new InjectedMemory("in_a", T1, "s1", "ev_1", "UserPromptSubmit", "high", 812, 1, "mem:aaaaaa", "m-1",
                        0.95),
                new InjectedMemory("in_c", T3, "s2", null, "SessionStart", "session_start", 120, 1, "mem:aaaaaa", "m-1",
                        0.5));
        assertThat(InjectionQueries.forMemory(c, "m-unknown")).isEmpty();
    }

    @Test
    void forSessionListsEveryInjectedMemoryByTimeThenRank() throws SQLException {
        assertThat(InjectionQueries.forSession(c, "s1")).containsExactly(
                new InjectedMemory("in_a", T1, "s1", "ev_1", "UserPromptSubmit", "high", 812, 1, "mem:aaaaaa", "m-1",
                        0.95),
                new InjectedMemory("in_a", T1, "s1", "ev_1", "UserPromptSubmit", "high", 812, 2, "mem:bbbbbb", "m-2",
                        0.80),
                new InjectedMemory("in_b", T2, "s1", "ev_2", "UserPromptSubmit", "suggested", 300, 1, "mem:bbbbbb",
                        "m-2", 0.77));
        assertThat(InjectionQueries.forSession(c, "s2")).extracting(InjectedMemory::injectionId)
            .containsExactly("in_c");
        assertThat(InjectionQueries.forSession(c, "s-unknown")).isEmpty();
    }

    @Test
    void continuityShownIsTheLatestSessionStartBlockAndTheContinuityBlocksSince() throws SQLException {
        LocalDateTime t0 = LocalDateTime.of(2025, 6, 3, 9, 0);
        try (Statement st = c.createStatement()) {
            st.execute(injection("in_s1", "s3", null, "SessionStart", "session_start", 700, t0, 5));
            st.execute(injection("in_p1", "s3", "ev_5", "UserPromptSubmit", "continuity", 700, t0.plusMinutes(1), 6));
            st.execute(injection("in_s2", "s3", null, "SessionStart", "session_start", 700, t0.plusHours(1), 7));
            st.execute(injection("in_p2", "s3", "ev_6", "UserPromptSubmit", "continuity", 700, t0.plusHours(2), 8));
            st.execute(injection("in_q", "s3", "ev_7", "UserPromptSubmit", "high", 300, t0.plusHours(3), 9));
            st.execute("INSERT INTO injection_items VALUES ('in_s1', 1, 'mem:old001', 'm-o', 1.0),"
                    + " ('in_p1', 1, 'mem:old002', 'm-p', 1.0), ('in_s2', 1, 'mem:new001', 'm-n', 1.0),"
                    + " ('in_s2', 2, 'mem:new002', 'm-q', 1.0), ('in_p2', 1, 'mem:new003', 'm-r', 1.0),"
                    + " ('in_q', 1, 'mem:search', 'm-s', 0.9)");
        }

        assertThat(InjectionQueries.continuityShown(c, "s3")).containsExactly("mem:new001", "mem:new002", "mem:new003");
        assertThat(InjectionQueries.continuityShown(c, "s2")).containsExactly("mem:aaaaaa");
        assertThat(InjectionQueries.continuityShown(c, "s1")).isEmpty();
    }

    private static String injection(String id, String session, String promptEventId, String hook, String band,
            int chars, LocalDateTime at, int line) {
        return "INSERT INTO injections (injection_id, session_id, prompt_event_id, hook_event_name, band, chars,"
                + " injected_at, spool_file, spool_line) VALUES ('" + id + "', '" + session + "', "
                + (promptEventId == null ? "NULL" : "'" + promptEventId + "'") + ", '" + hook + "', '" + band + "', "
                + chars + ", TIMESTAMP '" + at + "', 'f.jsonl', " + line + ")";
    }

}
