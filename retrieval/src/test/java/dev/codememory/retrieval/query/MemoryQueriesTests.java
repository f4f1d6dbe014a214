package dev.codememory.retrieval.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.SchemaMigrator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MemoryQueriesTests {

    private Connection c;

    @BeforeEach
    void createDatabase() throws SQLException {
        c = DriverManager.getConnection("jdbc:duckdb:");
        new SchemaMigrator().migrate(c);
        try (Statement st = c.createStatement()) {
            st.execute(event("ev1", "s1", "2024-01-01 10:00:00"));
            st.execute(event("ev2", "s1", "2024-01-01 10:01:00"));
            st.execute(event("ev3", "s2", "2024-01-02 09:00:00"));
            st.execute("""
                    INSERT INTO turns VALUES
                      ('t1', 's1', '/p', 'ev1', 'How do we deploy?', 'ev2', 'With the blue-green script.', 'stop',
                       '2024-01-01 10:00:00', '2024-01-01 10:01:00')""");
            st.execute(entry("e1", "exchange", "/p", "verified", "active", "2024-01-01 10:01:00"));
            st.execute(entry("e2", "decision", "/p", "verified", "superseded", "2024-01-01 10:02:00"));
            st.execute(entry("e3", "fact", "/q", "verified", "active", "2024-01-02 09:00:00"));
            st.execute(entry("e4", "fact", "/p", "unverified", "active", "2024-01-02 09:00:00"));
            // spans listed out of time order: the reply first
            st.execute("INSERT INTO evidence_spans VALUES ('e1', 0, 'ev2', 'reply', 0, 5, 1.0, 'exact', 'h0'),"
                    + " ('e1', 1, 'ev1', 'prompt', 0, 5, 1.0, 'exact', 'h1'),"
                    + " ('e3', 0, 'ev3', 'prompt', 0, 5, 1.0, 'exact', 'h2')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    private static String event(String id, String session, String ts) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', "
                + (id.hashCode() & 0xffff) + ", '" + ts + "', '" + ts + "', 'UserPromptSubmit', '" + session
                + "', '/p', 'import', '{}', 'c', 'f', 1)";
    }

    private static String entry(String id, String kind, String project, String stage, String status, String ts) {
        return "INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,"
                + " quotes_json, canonical_key, stage, status, created_at) VALUES ('" + id + "', 'c" + id + "', '"
                + kind + "', '" + project + "', 's1', '" + ts + "', 'title " + id + "', 'body " + id + "', '[]', 'k"
                + id + "', '" + stage + "', '" + status + "', '" + ts + "')";
    }

    @Test
    void readsVerifiedActiveMemoriesOfTheProject() throws SQLException {
        List<StoredMemory> memories = MemoryQueries.memories(c, "/p");

        assertThat(memories).containsExactly(new StoredMemory("e1", "exchange", "active", "/p", "s1",
                LocalDateTime.of(2024, 1, 1, 10, 1), "title e1", "body e1"));
        assertThat(MemoryQueries.memories(c, null)).extracting(StoredMemory::memoryId).containsExactly("e1", "e3");
    }

    @Test
    void readsSourcesInTimeOrder() throws SQLException {
        Map<String, List<MemorySource>> sources = MemoryQueries.sources(c, List.of("e1", "e3", "missing"));

        assertThat(sources).containsOnlyKeys("e1", "e3");
        assertThat(sources.get("e1")).containsExactly(
                new MemorySource("ev1", "s1", LocalDateTime.of(2024, 1, 1, 10, 0)),
                new MemorySource("ev2", "s1", LocalDateTime.of(2024, 1, 1, 10, 1)));
        assertThat(sources.get("e3"))
            .containsExactly(new MemorySource("ev3", "s2", LocalDateTime.of(2024, 1, 2, 9, 0)));
        assertThat(MemoryQueries.sources(c, List.of())).isEmpty();
    }

    @Test
    void readsSourceTurnTextsInTimeOrder() throws SQLException {
        Map<String, List<String>> texts = MemoryQueries.sourceTexts(c, "/p");

        assertThat(texts).containsExactly(Map.entry("e1", List.of("How do we deploy?", "With the blue-green script.")));
    }

    @Test
    void spokenTurnsEndWithTheirTextAndNameTheTurnThatFollowsInTheirSession() throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(event("ev4", "s1", "2024-01-01 10:02:00"));
            st.execute(event("ev5", "s1", "2024-01-01 10:03:00"));
            // a reply with no prompt (its prompt is empty and names the reply's own
            // event), then a prompt
            st.execute("""
                    INSERT INTO turns VALUES
                      ('t2', 's1', '/p', 'ev4', '', 'ev4', 'Which region?', 'stop',
                       '2024-01-01 10:02:00', '2024-01-01 10:02:00'),
                      ('t3', 's1', '/p', 'ev5', 'eu-west-1', NULL, NULL, NULL, '2024-01-01 10:03:00', NULL)""");
            st.execute("INSERT INTO evidence_spans VALUES ('e3', 1, 'ev4', 'reply', 0, 5, 1.0, 'exact', 'h3'),"
                    + " ('e3', 2, 'ev5', 'prompt', 0, 5, 1.0, 'exact', 'h4')");
        }
        List<MemorySource> sources = MemoryQueries.sources(c, List.of("e1", "e3"))
            .values()
            .stream()
            .flatMap(List::stream)
            .toList();

        Map<String, SpokenTurn> turns = MemoryQueries.spokenTurns(c, sources);
        assertThat(MemoryQueries.spokenTurns(c, List.of())).isEmpty();

        assertThat(turns).containsOnlyKeys("ev1", "ev2", "ev4", "ev5");
        assertThat(turns.get("ev1"))
            .isEqualTo(new SpokenTurn("ev1", new MemorySource("ev2", "s1", LocalDateTime.of(2024, 1, 1, 10, 1))));
        assertThat(turns.get("ev2").next())
            .isEqualTo(new MemorySource("ev4", "s1", LocalDateTime.of(2024, 1, 1, 10, 2)));
        assertThat(turns.get("ev4"))
            .isEqualTo(new SpokenTurn("ev4", new MemorySource("ev5", "s1", LocalDateTime.of(2024, 1, 1, 10, 3))));
        assertThat(turns.get("ev5")).isEqualTo(new SpokenTurn("ev5", null));

        // read for all the sources at once, as serve loads a project: the same turns, the
        // last one absent
        Map<String, MemorySource> nextSaid = MemoryQueries.projectSources(c, null).nextSaid();
        assertThat(nextSaid).containsOnlyKeys("ev1", "ev2", "ev4");
        nextSaid.forEach((event, next) -> assertThat(next).isEqualTo(turns.get(event).next()));
        assertThat(MemoryQueries.projectSources(c, "/p").nextSaid()).containsOnlyKeys("ev1", "ev2");
    }

    @Test
    void textIsTitleThenBodyUnlessTheBodyStartsWithIt() {
        LocalDateTime t = LocalDateTime.of(2024, 1, 1, 0, 0);
        assertThat(new StoredMemory("m", "fact", "active", "/p", "s", t, "Port", "Port is 8080").text())
            .isEqualTo("Port is 8080");
        assertThat(new StoredMemory("m", "fact", "active", "/p", "s", t, "Port", "8080").text())
            .isEqualTo("Port\n8080");
    }

}
