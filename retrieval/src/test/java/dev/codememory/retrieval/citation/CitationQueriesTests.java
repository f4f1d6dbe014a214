package dev.codememory.retrieval.citation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.readers.align.SessionSourceTexts;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CitationQueriesTests {

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private Connection c;

    @BeforeEach
    void createDatabase() throws SQLException {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        c = session.connection();
        try (Statement st = c.createStatement()) {
            st.execute(event("ev0", 1, "s1", "2024-01-01 10:00:00", "SessionStart", "{\"source\":\"startup\"}"));
            st.execute(event("ev1", 2, "s1", "2024-01-01 10:01:00", "UserPromptSubmit",
                    "{\"prompt\":\"How do we deploy?\"}"));
            st.execute(event("ev2", 3, "s1", "2024-01-01 10:02:00", "Stop",
                    "{\"last_assistant_message\":\"With the blue-green script.\"}"));
            st.execute(event("ev3", 4, "s1", "2024-01-01 10:03:00", "PostToolUse",
                    "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"ls\"},\"tool_response\":\"a b\"}"));
            st.execute(
                    event("ev4", 5, "s1", "2024-01-01 10:04:00", "UserPromptSubmit", "{\"prompt\":\"And rollback?\"}"));
            st.execute(event("ev5", 6, "s1", "2024-01-01 10:05:00", "Stop",
                    "{\"last_assistant_message\":\"Run rollback.sh from the ops folder.\"}"));
            st.execute(event("ev6", 7, "s1", "2024-01-01 10:06:00", "SessionEnd", "{\"reason\":\"other\"}"));
            // an earlier session, ingested later
            st.execute(event("ev7", 8, "s0", "2023-12-31 09:00:00", "UserPromptSubmit",
                    "{\"prompt\":\"Where is rollback.sh?\"}"));
            st.execute(
                    """
                            INSERT INTO turns VALUES
                              ('t1', 's1', '/p', 'ev1', 'How do we deploy?', 'ev2', 'With the blue-green script.', 'stop',
                               '2024-01-01 10:01:00', '2024-01-01 10:02:00'),
                              ('t2', 's1', '/p', 'ev4', 'And rollback?', 'ev5', 'Run rollback.sh from the ops folder.', 'stop',
                               '2024-01-01 10:04:00', '2024-01-01 10:05:00'),
                              ('t3', 's0', '/p', 'ev7', 'Where is rollback.sh?', NULL, NULL, NULL, '2023-12-31 09:00:00', NULL)""");
            st.execute("""
                    INSERT INTO observations VALUES ('ev3', 's1', '/p', 'Bash', '[]', 'ls', false, NULL, 12,
                      '2024-01-01 10:03:00', '{"command":"ls"}', 'a b')""");
            st.execute(entry("e1", "exchange", "verified", "active", null));
            st.execute(entry("e2", "fact", "verified", "superseded", "e3"));
            st.execute(entry("e3", "fact", "verified", "active", null));
            st.execute("INSERT INTO evidence_spans VALUES" + " ('e1', 0, 'ev1', 'prompt', 0, 17, 1.0, 'exact', 'h0'),"
                    + " ('e1', 1, 'ev2', 'reply', 9, 26, 0.95, 'whitespace', 'h1'),"
                    + " ('e2', 0, 'ev5', 'reply', 0, 999, 1.0, 'exact', 'h2'),"
                    + " ('e3', 0, 'ev5', 'reply', 4, 15, 1.0, 'exact', 'h3'),"
                    + " ('e3', 1, 'ev7', 'prompt', 9, 20, 0.9, 'fuzzy', 'h4')");
            st.execute("INSERT INTO citations VALUES ('abc123', 'e1', TIMESTAMP '2024-01-02 00:00:00'),"
                    + " ('xyz-_9', 'e2', TIMESTAMP '2024-01-02 00:00:00'),"
                    + " ('Q0q0Q0', 'e3', TIMESTAMP '2024-01-02 00:00:00')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
        session.close();
    }

    private static String event(String id, int seq, String session, String ts, String type, String payload) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '" + ts + "', '" + ts + "', '" + type + "', '" + session + "', '/p', 'import', '" + payload
                + "', 'c', 'f', " + seq + ")";
    }

    private static String entry(String id, String kind, String stage, String status, String supersededBy) {
        return "INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,"
                + " quotes_json, canonical_key, stage, status, superseded_by, created_at) VALUES ('" + id + "', 'c" + id
                + "', '" + kind + "', '/p', 's1', '2024-01-01 10:02:00', 'title " + id + "', 'body " + id
                + "', '[]', 'k" + id + "', '" + stage + "', '" + status + "', "
                + (supersededBy == null ? "NULL" : "'" + supersededBy + "'") + ", '2024-01-01 10:02:00')";
    }

    @Test
    void parsesTheThreeWaysACitationIsWritten() {
        assertThat(CitationQueries.code("mem:abc123")).contains("abc123");
        assertThat(CitationQueries.code("[mem:abc123]")).contains("abc123");
        assertThat(CitationQueries.code(" abc123 ")).contains("abc123");
        assertThat(CitationQueries.code("mem:a-_B9z")).contains("a-_B9z");
        assertThat(CitationQueries.code("mem:abc12")).isEmpty();
        assertThat(CitationQueries.code("mem:abc1234")).isEmpty();
        assertThat(CitationQueries.code("mem:abc+23")).isEmpty();
        assertThat(CitationQueries.code("[mem:abc123")).isEmpty();
        assertThat(CitationQueries.code("")).isEmpty();
        assertThat(CitationQueries.code(null)).isEmpty();
    }

    @Test
    void resolvesACitationToItsMemory() throws SQLException {
        assertThat(CitationQueries.memoryOf(c, "mem:abc123")).contains("e1");
        assertThat(CitationQueries.memoryOf(c, "[mem:abc123]")).contains("e1");
        assertThat(CitationQueries.memoryOf(c, "xyz-_9")).contains("e2");
        assertThat(CitationQueries.memoryOf(c, "mem:zzzzzz")).isEmpty();
        assertThat(CitationQueries.memoryOf(c, "mem:ABC123")).isEmpty(); // codes are
                                                                         // case-sensitive
        assertThat(CitationQueries.memoryOf(c, "not a citation")).isEmpty();
    }

    @Test
    void readsTheCitationsOfMemoriesThatHaveOne() throws SQLException {
        assertThat(CitationQueries.citationsOf(c, List.of("e2", "e1", "missing")))
            .containsOnly(Map.entry("e1", "mem:abc123"), Map.entry("e2", "mem:xyz-_9"));
        assertThat(CitationQueries.citationsOf(c, List.of())).isEmpty();

        List<String> many = new ArrayList<>();
        for (int i = 0; i < 2_500; i++) {
            many.add("m" + i);
        }
        many.add("e3");
        assertThat(CitationQueries.citationsOf(c, many)).containsOnly(Map.entry("e3", "mem:Q0q0Q0"));
    }

    @Test
    void readsTheCitedMemoryWhateverItsStatus() throws SQLException {
        assertThat(CitationQueries.memory(c, "[mem:xyz-_9]"))
            .contains(new CitedMemory("mem:xyz-_9", "e2", "fact", "superseded", "verified", "/p", "s1",
                    LocalDateTime.of(2024, 1, 1, 10, 2), "title e2", "body e2", "e3"));
        assertThat(CitationQueries.memory(c, "mem:zzzzzz")).isEmpty();
        assertThat(CitationQueries.memory(c, "mem:")).isEmpty();
    }

    @Test
    void readsSpansWithTheQuotedTextFromTheAlignersSource() throws SQLException {
        SessionSourceTexts sources = new SessionSourceTexts(session::connection);

        assertThat(CitationQueries.spans(c, "e1", sources)).containsExactly(
                new CitedSpan(0, "ev1", "prompt", 0, 17, 1.0, "exact", "How do we deploy?"),
                new CitedSpan(1, "ev2", "reply", 9, 26, 0.95, "whitespace", "blue-green script"));
        assertThat(CitationQueries.spans(c, "e2", sources))
            .containsExactly(new CitedSpan(0, "ev5", "reply", 0, 999, 1.0, "exact", null)); // the
                                                                                            // source
                                                                                            // is
                                                                                            // shorter
        assertThat(CitationQueries.spans(c, "missing", sources)).isEmpty();
    }

    @Test
    void sourceTextsReadAheadAreTheTextsASessionAtATimeGives() throws SQLException {
        List<String> events = List.of("ev0", "ev1", "ev2", "ev3", "ev4", "ev5", "ev6", "ev7", "gone");
        List<String> fields = List.of("prompt", "reply", "tool_input", "tool_response");
        SessionSourceTexts bySession = new SessionSourceTexts(session::connection);
        SessionSourceTexts readAhead = new SessionSourceTexts(session::connection);
        readAhead.prefetch(List.of("ev1", "ev3", "ev7", "ev1", "gone"));

        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (String event : events) {
            for (String field : fields) {
                expected.add(event + "/" + field + "=" + bySession.text(event, field));
                actual.add(event + "/" + field + "=" + readAhead.text(event, field));
            }
        }

        assertThat(actual).isEqualTo(expected)
            .contains("ev1/prompt=How do we deploy?", "ev3/tool_response=a b", "ev7/reply=null", "gone/prompt=null");
        readAhead.prefetch(List.of("ev5"));
        try (Statement st = c.createStatement()) {
            st.execute("DELETE FROM turns WHERE turn_id = 't2'"); // what was read ahead
                                                                  // is
                                                                  // answered from memory
        }
        assertThat(readAhead.text("ev5", "reply")).isEqualTo("Run rollback.sh from the ops folder.");
        assertThat(readAhead.text("ev1", "prompt")).isEqualTo("How do we deploy?"); // read
                                                                                    // by
                                                                                    // session
    }

    @Test
    void readsSourceEventsWithTheirNeighboursEachOnce() throws SQLException {
        List<ContextEvent> events = CitationQueries.sourceContext(c, "e1");

        assertThat(events).containsExactly(
                new ContextEvent("ev0", "s1", 1, 1, LocalDateTime.of(2024, 1, 1, 10, 0), "SessionStart", false, null,
                        null, null, null, null, "startup"),
                new ContextEvent("ev1", "s1", 2, 2, LocalDateTime.of(2024, 1, 1, 10, 1), "UserPromptSubmit", true,
                        "How do we deploy?", null, null, null, null, "How do we deploy?"),
                new ContextEvent("ev2", "s1", 3, 3, LocalDateTime.of(2024, 1, 1, 10, 2), "Stop", true, null,
                        "With the blue-green script.", null, null, null, "With the blue-green script."),
                new ContextEvent("ev3", "s1", 4, 4, LocalDateTime.of(2024, 1, 1, 10, 3), "PostToolUse", false, null,
                        null, "Bash", "{\"command\":\"ls\"}", "a b", "Bash"));
    }

    /**
     * A reply with no prompt before it is a turn with an empty prompt whose prompt and
     * reply event are the Stop: the event is the reply, Claude's, not an empty prompt.
     */
    @Test
    void aReplyWithoutAPromptIsReadAsTheReply() throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(event("ev8", 9, "s2", "2024-01-02 08:00:00", "Stop",
                    "{\"last_assistant_message\":\"Deploys are frozen until Monday.\"}"));
            st.execute("INSERT INTO turns VALUES ('t4', 's2', '/p', 'ev8', '', 'ev8', 'Deploys are frozen until"
                    + " Monday.', 'stop', '2024-01-02 08:00:00', '2024-01-02 08:00:00')");
            st.execute(entry("e4", "fact", "verified", "active", null));
            st.execute("INSERT INTO evidence_spans VALUES ('e4', 0, 'ev8', 'reply', 0, 32, 1.0, 'exact', 'h5')");
        }

        assertThat(CitationQueries.sourceContext(c, "e4"))
            .containsExactly(new ContextEvent("ev8", "s2", 9, 1, LocalDateTime.of(2024, 1, 2, 8, 0), "Stop", true, null,
                    "Deploys are frozen until Monday.", null, null, null, "Deploys are frozen until Monday."));
    }

    @Test
    void ordersSessionsByTheirFirstSourceEvent() throws SQLException {
        List<ContextEvent> events = CitationQueries.sourceContext(c, "e3");

        assertThat(events)
            .extracting(e -> e.sessionId() + "/" + e.eventId() + "@" + e.position() + (e.source() ? "*" : ""))
            .containsExactly("s0/ev7@1*", "s1/ev4@5", "s1/ev5@6*", "s1/ev6@7");
        assertThat(events.get(3).detail()).isEqualTo("other");
        assertThat(CitationQueries.sourceContext(c, "missing")).isEmpty();
    }

    @Test
    void citationsOfIgnoresOrderAndDuplicates() throws SQLException {
        assertThat(CitationQueries.citationsOf(c, List.of("e1", "e1"))).containsOnly(Map.entry("e1", "mem:abc123"));
        assertThat(CitationQueries.memoryOf(c, "mem:Q0q0Q0")).isEqualTo(Optional.of("e3"));
    }

}
