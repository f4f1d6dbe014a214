package dev.codememory.writers.events;

import dev.codememory.config.db.DuckRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.ingest.IngestRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;

class DuckDbIngestWriterTests {

    private static final String FILE = "20250601T101530.000000Z-42-1.jsonl";

    private static final LocalDateTime RECEIVED = LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000);

    @TempDir
    Path tmp;

    private DuckDb.Session session;

    private DuckDbIngestWriter writer;

    private LocalDateTime before;

    @BeforeEach
    void openDatabase() {
        session = new DuckDb(tmp.resolve("memory.duckdb"), "1GB", 1).open();
        writer = new DuckDbIngestWriter(session::connection);
        before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);
    }

    @AfterEach
    void closeDatabase() {
        session.close();
    }

    @Test
    void writesEventsAndRejectsOfAChunk() throws SQLException {
        writer.write(new Chunk<>(List.of(event(1, FILE, 1), event(2, FILE, 2), reject(FILE, 3), event(3, FILE, 4))));

        LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT event_id, dedupe_key, seq, ts, received_at, event_type,"
                        + " session_id, project, cwd, source, payload, checksum, spool_file, spool_line, ingested_at"
                        + " FROM events ORDER BY seq")) {
            assertEventRow(rs, 1, 1, FILE, 1, before, after);
            assertEventRow(rs, 2, 2, FILE, 2, before, after);
            assertEventRow(rs, 3, 3, FILE, 4, before, after);
            assertThat(rs.next()).isFalse();
        }
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT reject_id, spool_file, spool_line, reason, raw_text,"
                        + " received_at, rejected_at FROM event_rejects")) {
            assertRejectRow(rs, FILE, 3, before, after);
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void writesNullSessionCwdAndReceivedAt() throws SQLException {
        IngestRecord.Event bare = new IngestRecord.Event("ev_bare", "key-bare", RECEIVED, RECEIVED, "Notification",
                null, "(unknown)", null, "import", "{}", "sum-bare", FILE, 1);
        IngestRecord.Reject noTime = new IngestRecord.Reject("rj_notime", FILE, 2, "spool line is not valid UTF-8",
                "\uFFFD", null);

        writer.write(new Chunk<>(List.of(bare, noTime)));

        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st
                    .executeQuery("SELECT event_id, session_id, project, cwd, source, payload FROM events")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("ev_bare");
            assertThat(rs.getString(2)).isNull();
            assertThat(rs.getString(3)).isEqualTo("(unknown)");
            assertThat(rs.getString(4)).isNull();
            assertThat(rs.getString(5)).isEqualTo("import");
            assertThat(rs.getString(6)).isEqualTo("{}");
            assertThat(rs.next()).isFalse();
        }
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT reject_id, raw_text, received_at FROM event_rejects")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("rj_notime");
            assertThat(rs.getString(2)).isEqualTo("\uFFFD");
            assertThat(rs.getObject(3)).isNull();
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void writingTheSameChunkAgainAddsNothing() throws SQLException {
        Chunk<IngestRecord> chunk = new Chunk<>(
                List.of(event(1, FILE, 1), event(2, FILE, 2), reject(FILE, 3), event(3, FILE, 4)));
        writer.write(chunk);
        List<String> firstEvents = rows("SELECT event_id || ':' || seq || ':' || spool_line FROM events ORDER BY seq");

        writer.write(chunk);
        new DuckDbIngestWriter(session::connection).write(chunk);

        assertThat(count("SELECT count(*) FROM events")).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM event_rejects")).isEqualTo(1);
        assertThat(rows("SELECT event_id || ':' || seq || ':' || spool_line FROM events ORDER BY seq"))
            .isEqualTo(firstEvents)
            .containsExactly(id(1) + ":1:1", id(2) + ":2:2", id(3) + ":3:4");
    }

    @Test
    void sameEventTwiceInAChunkIsWrittenOnceAtItsFirstPosition() throws SQLException {
        IngestRecord.Event first = event(1, FILE, 1);
        IngestRecord.Event again = new IngestRecord.Event(first.eventId(), first.dedupeKey(), first.ts(),
                first.receivedAt(), first.eventType(), first.sessionId(), first.project(), first.cwd(), first.source(),
                first.payloadJson(), first.checksum(), FILE, 5);

        writer.write(new Chunk<>(List.of(again, event(2, FILE, 2), first, reject(FILE, 3), reject(FILE, 3))));

        assertThat(rows("SELECT event_id || ':' || seq || ':' || spool_line FROM events ORDER BY seq"))
            .containsExactly(id(1) + ":1:1", id(2) + ":2:2");
        assertThat(rows("SELECT reject_id || ':' || spool_line FROM event_rejects"))
            .containsExactly(reject(FILE, 3).rejectId() + ":3");
    }

    @Test
    void nextChunkContinuesTheSequence() throws SQLException {
        writer.write(new Chunk<>(List.of(event(1, FILE, 1), event(2, FILE, 2), event(3, FILE, 3))));

        writer.write(new Chunk<>(
                List.of(event(3, FILE, 3), event(4, FILE, 4), event(5, "20250601T111111.000000Z-42-2.jsonl", 1))));

        assertThat(rows("SELECT event_id || ':' || seq FROM events ORDER BY seq")).containsExactly(id(1) + ":1",
                id(2) + ":2", id(3) + ":3", id(4) + ":4", id(5) + ":5");
    }

    @Test
    void sequenceFollowsSpoolOrderNotChunkOrder() throws SQLException {
        String later = "20250601T111111.000000Z-42-2.jsonl";

        writer
            .write(new Chunk<>(List.of(event(4, later, 1), event(3, FILE, 10), event(1, FILE, 2), event(2, FILE, 9))));

        assertThat(rows(
                "SELECT event_id || ':' || seq || ':' || spool_file || ':' || spool_line FROM events ORDER BY seq"))
            .containsExactly(id(1) + ":1:" + FILE + ":2", id(2) + ":2:" + FILE + ":9", id(3) + ":3:" + FILE + ":10",
                    id(4) + ":4:" + later + ":1");
    }

    @Test
    void emptyChunkWritesNothing() throws SQLException {
        writer.write(new Chunk<>(List.of()));

        assertThat(count("SELECT count(*) FROM events")).isZero();
        assertThat(count("SELECT count(*) FROM event_rejects")).isZero();
    }

    @Test
    void failedChunkWritesNothingAndTheNextOneStillWorks() throws SQLException {
        IngestRecord.Event broken = new IngestRecord.Event("ev_broken", "key-broken", RECEIVED, RECEIVED, "Stop", null,
                "(unknown)", null, "hook", "{not json", "sum", FILE, 3);

        assertThatThrownBy(() -> writer.write(new Chunk<>(List.of(event(1, FILE, 1), reject(FILE, 2), broken))))
            .isInstanceOf(DatabaseException.class)
            .hasMessageStartingWith("cannot write 3 ingested lines: ");

        assertThat(count("SELECT count(*) FROM events")).isZero();
        assertThat(count("SELECT count(*) FROM event_rejects")).isZero();

        writer.write(new Chunk<>(List.of(event(1, FILE, 1), reject(FILE, 2))));

        assertThat(rows("SELECT event_id || ':' || seq FROM events")).containsExactly(id(1) + ":1");
        assertThat(count("SELECT count(*) FROM event_rejects")).isEqualTo(1);
    }

    // ---- fixtures ----

    private static String id(int n) {
        return "ev_" + "%032d".formatted(n);
    }

    @Test
    void forgottenEventsAndSessionsAreNotIngestedAgain() throws SQLException {
        try (Connection c = session.connection(); Statement st = c.createStatement()) {
            st.execute(
                    "INSERT INTO forgotten VALUES ('event', 'key-2', 'fg_1', now()), ('session', 's-9', 'fg_1', now())");
        }
        IngestRecord.Event inForgottenSession = new IngestRecord.Event(id(4), "key-4", RECEIVED, RECEIVED, "Stop",
                "s-9", "/work/app", "/work/app", "hook", "{}", "sum-4", FILE, 4);

        writer.write(new Chunk<>(List.of(event(1, FILE, 1), event(2, FILE, 2), event(3, FILE, 3), inForgottenSession)));

        assertThat(DuckRows.rows(session, "SELECT dedupe_key, seq FROM events ORDER BY seq")).containsExactly("key-1 1",
                "key-3 2");
    }

    @Test
    void transcriptEventsOfAPartTheHooksCapturedAreSkipped() throws SQLException {
        LocalDateTime hooked = LocalDateTime.of(2025, 6, 1, 12, 0);
        writer.write(new Chunk<>(List.of(sourced(1, "hook", "s-1", hooked))));

        writer.write(new Chunk<>(List.of(sourced(2, "transcript", "s-1", hooked.minusMinutes(5)), // before
                                                                                                  // the
                                                                                                  // hooks:
                                                                                                  // kept
                sourced(3, "transcript", "s-1", hooked), // captured by the hooks too:
                                                         // skipped
                sourced(4, "transcript", "s-1", hooked.plusMinutes(5)),
                sourced(5, "transcript", "s-2", hooked.plusMinutes(5)), // a session the
                                                                        // hooks never
                                                                        // saw: kept
                sourced(6, "import", "s-1", hooked.plusMinutes(6)))));

        assertThat(DuckRows.rows(session, "SELECT dedupe_key, source FROM events ORDER BY seq"))
            .containsExactly("key-1 hook", "key-2 transcript", "key-5 transcript", "key-6 import");
    }

    /**
     * {@code import --transcripts} spools its events behind hook events of the same
     * sessions that no ingest has read yet; one ingest then reads both in one chunk.
     */
    @Test
    void transcriptEventsOfAPartTheHooksCapturedAreSkippedWhenBothArriveInOneChunk() throws SQLException {
        LocalDateTime hooked = LocalDateTime.of(2025, 6, 1, 12, 0);

        writer.write(
                new Chunk<>(List.of(sourced(1, "hook", "s-1", hooked), sourced(2, "hook", "s-1", hooked.plusMinutes(1)),
                        sourced(3, "transcript", "s-1", hooked.minusMinutes(5)), // before
                                                                                 // the
                                                                                 // hooks:
                                                                                 // kept
                        sourced(4, "transcript", "s-1", hooked), sourced(5, "transcript", "s-1", hooked.plusMinutes(1)),
                        sourced(6, "transcript", "s-2", hooked.plusMinutes(5)))));

        assertThat(DuckRows.rows(session, "SELECT dedupe_key, source, seq FROM events ORDER BY seq"))
            .containsExactly("key-1 hook 1", "key-2 hook 2", "key-3 transcript 3", "key-6 transcript 4");
    }

    private static IngestRecord.Event sourced(int n, String source, String sessionId, LocalDateTime ts) {
        return new IngestRecord.Event(id(n), "key-" + n, ts, RECEIVED, "UserPromptSubmit", sessionId, "/work/app",
                "/work/app", source, "{\"prompt\":\"p" + n + "\"}", "sum-" + n, FILE, n);
    }

    private static IngestRecord.Event event(int n, String file, long line) {
        return new IngestRecord.Event(id(n), "key-" + n, LocalDateTime.of(2025, 6, 1, 9, 0, n, 500_000), RECEIVED,
                "UserPromptSubmit", "s-1", "/work/app", "/work/app/src", "hook",
                "{\"prompt\":\"p" + n + "\",\"n\":" + n + ".50}", "sum-" + n, file, line);
    }

    private static IngestRecord.Reject reject(String file, long line) {
        return new IngestRecord.Reject("rj_" + file.hashCode() + "_" + line, file, line, "unknown hook event 'Foo'",
                "{\"raw\":" + line + "}", RECEIVED);
    }

    private static void assertEventRow(ResultSet rs, int n, long seq, String file, long line, LocalDateTime from,
            LocalDateTime to) throws SQLException {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("event_id")).isEqualTo(id(n));
        assertThat(rs.getString("dedupe_key")).isEqualTo("key-" + n);
        assertThat(rs.getLong("seq")).isEqualTo(seq);
        assertThat(rs.getObject("ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(2025, 6, 1, 9, 0, n, 500_000));
        assertThat(rs.getObject("received_at", LocalDateTime.class)).isEqualTo(RECEIVED);
        assertThat(rs.getString("event_type")).isEqualTo("UserPromptSubmit");
        assertThat(rs.getString("session_id")).isEqualTo("s-1");
        assertThat(rs.getString("project")).isEqualTo("/work/app");
        assertThat(rs.getString("cwd")).isEqualTo("/work/app/src");
        assertThat(rs.getString("source")).isEqualTo("hook");
        assertThat(rs.getString("payload")).isEqualTo("{\"prompt\":\"p" + n + "\",\"n\":" + n + ".50}");
        assertThat(rs.getString("checksum")).isEqualTo("sum-" + n);
        assertThat(rs.getString("spool_file")).isEqualTo(file);
        assertThat(rs.getLong("spool_line")).isEqualTo(line);
        assertThat(rs.getObject("ingested_at", LocalDateTime.class)).isBetween(from, to);
    }

    private static void assertRejectRow(ResultSet rs, String file, long line, LocalDateTime from, LocalDateTime to)
            throws SQLException {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("reject_id")).isEqualTo(reject(file, line).rejectId());
        assertThat(rs.getString("spool_file")).isEqualTo(file);
        assertThat(rs.getLong("spool_line")).isEqualTo(line);
        assertThat(rs.getString("reason")).isEqualTo("unknown hook event 'Foo'");
        assertThat(rs.getString("raw_text")).isEqualTo("{\"raw\":" + line + "}");
        assertThat(rs.getObject("received_at", LocalDateTime.class)).isEqualTo(RECEIVED);
        assertThat(rs.getObject("rejected_at", LocalDateTime.class)).isBetween(from, to);
    }

    private List<String> rows(String sql) throws SQLException {
        return DuckRows.rows(session, sql);
    }

    private long count(String sql) throws SQLException {
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            long value = rs.getLong(1);
            assertThat(rs.next()).isFalse();
            return value;
        }
    }

}
