package dev.codememory.writers.injection;

import dev.codememory.config.db.DuckRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.injection.Injection;
import dev.codememory.writers.events.DuckDbIngestWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;

/**
 * Injection records through the ingest writer: both tables, in the chunk's transaction,
 * idempotent.
 */
class DuckDbInjectionWriterTests {

    private static final String FILE = "20250601T101530.000000Z-42-1.jsonl";

    private static final Instant AT = Instant.parse("2025-06-01T10:15:30.123456Z");

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
    void writesInjectionsAndTheirItems() throws SQLException {
        Injection prompt = new Injection("s-1", "ev_a", "UserPromptSubmit", AT, "high", 812, List
            .of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.93), new Injection.Item("mem:Q2w_e4", "m-2", 2, 0.61)));
        Injection start = new Injection(null, null, "SessionStart", AT.plusSeconds(5), "session_start", 0, List.of());

        writer.write(new Chunk<>(List.of(injected(prompt, 2), event(1), injected(start, 3))));

        LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT injection_id, session_id, prompt_event_id, hook_event_name,"
                        + " band, chars, injected_at, spool_file, spool_line, ingested_at FROM injections"
                        + " ORDER BY spool_line")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(prompt.injectionId());
            assertThat(rs.getString(2)).isEqualTo("s-1");
            assertThat(rs.getString(3)).isEqualTo("ev_a");
            assertThat(rs.getString(4)).isEqualTo("UserPromptSubmit");
            assertThat(rs.getString(5)).isEqualTo("high");
            assertThat(rs.getInt(6)).isEqualTo(812);
            assertThat(rs.getObject(7, LocalDateTime.class))
                .isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 15, 30, 123_456_000));
            assertThat(rs.getString(8)).isEqualTo(FILE);
            assertThat(rs.getLong(9)).isEqualTo(2);
            assertThat(rs.getObject(10, LocalDateTime.class)).isBetween(before, after);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(start.injectionId());
            assertThat(rs.getString(2)).isNull();
            assertThat(rs.getString(3)).isNull();
            assertThat(rs.getString(4)).isEqualTo("SessionStart");
            assertThat(rs.getString(5)).isEqualTo("session_start");
            assertThat(rs.getInt(6)).isZero();
            assertThat(rs.getObject(7, LocalDateTime.class))
                .isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 15, 35, 123_456_000));
            assertThat(rs.getLong(9)).isEqualTo(3);
            assertThat(rs.next()).isFalse();
        }
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT injection_id, rank, citation, memory_id, score"
                        + " FROM injection_items ORDER BY rank")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(prompt.injectionId());
            assertThat(rs.getInt(2)).isEqualTo(1);
            assertThat(rs.getString(3)).isEqualTo("mem:a7Bc3x");
            assertThat(rs.getString(4)).isEqualTo("m-1");
            assertThat(rs.getDouble(5)).isEqualTo(0.93);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(prompt.injectionId());
            assertThat(rs.getInt(2)).isEqualTo(2);
            assertThat(rs.getString(3)).isEqualTo("mem:Q2w_e4");
            assertThat(rs.getString(4)).isEqualTo("m-2");
            assertThat(rs.getDouble(5)).isEqualTo(0.61);
            assertThat(rs.next()).isFalse();
        }
        assertThat(rows("SELECT event_id || ':' || seq || ':' || spool_line FROM events")).containsExactly("ev_1:1:1");
    }

    @Test
    void writingTheSameChunkAgainAddsNothing() throws SQLException {
        Chunk<IngestRecord> chunk = new Chunk<>(List.of(injected(prompt("s-1", 3), 1), injected(prompt("s-2", 1), 2)));
        writer.write(chunk);
        List<String> first = snapshot();

        writer.write(chunk);
        new DuckDbIngestWriter(session::connection).write(chunk);

        assertThat(snapshot()).isEqualTo(first).hasSize(6);
        assertThat(rows("SELECT count(*) FROM injections")).containsExactly("2");
        assertThat(rows("SELECT count(*) FROM injection_items")).containsExactly("4");
    }

    @Test
    void sameInjectionOnTwoLinesKeepsTheFirstLineWithItsItemsOnly() throws SQLException {
        Injection first = prompt("s-1", 2);
        Injection sameIdOtherItems = new Injection("s-1", first.promptEventId(), "UserPromptSubmit", AT, "none", 5, List
            .of(new Injection.Item("mem:zzzzzz", "m-9", 1, 0.1), new Injection.Item("mem:yyyyyy", "m-8", 3, 0.1)));
        assertThat(sameIdOtherItems.injectionId()).isEqualTo(first.injectionId());

        writer.write(new Chunk<>(List.of(injected(sameIdOtherItems, 7), injected(first, 4))));
        writer.write(new Chunk<>(List.of(injected(sameIdOtherItems, 9))));

        assertThat(rows("SELECT injection_id || ':' || band || ':' || spool_line FROM injections"))
            .containsExactly(first.injectionId() + ":high:4");
        assertThat(rows("SELECT rank || ':' || memory_id FROM injection_items ORDER BY rank")).containsExactly("1:m-1",
                "2:m-2");
    }

    @Test
    void failedChunkWritesNoInjectionEither() throws SQLException {
        IngestRecord.Event broken = new IngestRecord.Event("ev_broken", "key-broken",
                LocalDateTime.of(2025, 6, 1, 0, 0), LocalDateTime.of(2025, 6, 1, 0, 0), "Stop", null, "(unknown)", null,
                "hook", "{not json", "sum", FILE, 1);

        assertThatThrownBy(() -> writer.write(new Chunk<>(List.of(broken, injected(prompt("s-1", 2), 2)))))
            .isInstanceOf(DatabaseException.class);

        assertThat(rows("SELECT count(*) FROM injections")).containsExactly("0");
        assertThat(rows("SELECT count(*) FROM injection_items")).containsExactly("0");
        writer.write(new Chunk<>(List.of(injected(prompt("s-1", 2), 2))));
        assertThat(rows("SELECT count(*) FROM injection_items")).containsExactly("2");
    }

    // ---- fixtures ----

    private static Injection prompt(String session, int items) {
        List<Injection.Item> list = new ArrayList<>();
        for (int rank = 1; rank <= items; rank++) {
            list.add(new Injection.Item("mem:c" + rank, "m-" + rank, rank, 1.0 / rank));
        }
        return new Injection(session, "ev_" + session, "UserPromptSubmit", AT, "high", 100, list);
    }

    private static IngestRecord.Injected injected(Injection injection, long line) {
        return new IngestRecord.Injected(injection.injectionId(), injection, FILE, line);
    }

    private static IngestRecord.Event event(long line) {
        LocalDateTime ts = LocalDateTime.of(2025, 6, 1, 10, 0);
        return new IngestRecord.Event("ev_" + line, "key-" + line, ts, ts, "UserPromptSubmit", "s-1", "/work/app",
                "/work/app", "hook", "{\"prompt\":\"p\"}", "sum", FILE, line);
    }

    private List<String> snapshot() throws SQLException {
        List<String> rows = new ArrayList<>(rows("SELECT injection_id || '|' || coalesce(session_id, '') || '|'"
                + " || band || '|' || chars || '|' || injected_at || '|' || spool_line || '|' || ingested_at"
                + " FROM injections ORDER BY injection_id"));
        rows.addAll(rows("SELECT injection_id || '|' || rank || '|' || citation || '|' || memory_id || '|' || score"
                + " FROM injection_items ORDER BY injection_id, rank"));
        return rows;
    }

    private List<String> rows(String sql) throws SQLException {
        return DuckRows.rows(session, sql);
    }

}
