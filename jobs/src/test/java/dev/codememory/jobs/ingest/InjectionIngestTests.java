package dev.codememory.jobs.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.IngestRecord;
import dev.codememory.config.ingest.SpoolLine;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.jobs.JobsJar;
import dev.codememory.processors.ingest.HookEventProcessor;
import dev.codememory.readers.injection.InjectedMemory;
import dev.codememory.readers.injection.InjectionQueries;
import dev.codememory.readers.spool.SpoolLineReader;
import dev.codememory.writers.events.DuckDbIngestWriter;
import dev.codememory.writers.injection.InjectionRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * The hook's side (prompt line, then its injection record) through the ingest step's own
 * reader, processor and writer, without Spring: the id the hook computed is the id ingest
 * gives the prompt.
 */
class InjectionIngestTests {

    private static final Instant PROMPT_AT = Instant.parse("2025-06-01T10:15:30.123456Z");

    private static final Instant INJECTED_AT = Instant.parse("2025-06-01T10:15:30.456789Z");

    @TempDir
    Path tmp;

    private CodeMemoryHome home;

    private Spool spool;

    private DuckDb.Session session;

    private final HookEventProcessor processor = new HookEventProcessor(new ProjectResolver());

    @BeforeEach
    void createHome() {
        home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        spool = Spool.forHome(home);
        session = new DuckDb(home.database(), "1GB", 1).open();
    }

    @AfterEach
    void closeDatabase() {
        session.close();
    }

    @Test
    void injectionNamesThePromptEventIngestCreates() throws Exception {
        SpoolLineBuilder.Line prompt = hookSpools("{\"session_id\":\"s-1\",\"cwd\":\"/tmp/p\","
                + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"why does the deploy fail\"}");
        Injection injection = new Injection("s-1", prompt.eventId(), "UserPromptSubmit", INJECTED_AT, "high", 812, List
            .of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.93), new Injection.Item("mem:Q2w_e4", "m-2", 2, 0.78)));
        InjectionRecorder.record(home, injection);
        spool.seal();

        ingest(100);

        assertThat(rows("SELECT e.event_id, e.event_type, e.session_id, i.injection_id, i.band, i.chars"
                + " FROM injections i JOIN events e ON e.event_id = i.prompt_event_id"))
            .containsExactly(
                    List.of(prompt.eventId(), "UserPromptSubmit", "s-1", injection.injectionId(), "high", 812));
        LocalDateTime at = LocalDateTime.of(2025, 6, 1, 10, 15, 30, 456_789_000);
        try (Connection c = session.connection()) {
            assertThat(InjectionQueries.forSession(c, "s-1")).containsExactly(
                    new InjectedMemory(injection.injectionId(), at, "s-1", prompt.eventId(), "UserPromptSubmit", "high",
                            812, 1, "mem:a7Bc3x", "m-1", 0.93),
                    new InjectedMemory(injection.injectionId(), at, "s-1", prompt.eventId(), "UserPromptSubmit", "high",
                            812, 2, "mem:Q2w_e4", "m-2", 0.78));
        }
        assertThat(rows("SELECT count(*) FROM event_rejects")).containsExactly(List.of(0L));
    }

    @Test
    void reingestingTheSameSpoolChangesNothingAndMalformedLinesAreRejected() throws Exception {
        SpoolLineBuilder.Line prompt = hookSpools(
                "{\"session_id\":\"s-1\",\"hook_event_name\":\"UserPromptSubmit\"," + "\"prompt\":\"p\"}");
        InjectionRecorder.record(home, new Injection("s-1", prompt.eventId(), "UserPromptSubmit", INJECTED_AT,
                "suggested", 40, List.of(new Injection.Item("mem:a7Bc3x", "m-1", 1, 0.8))));
        spool.append("{\"spool\":1,\"record\":\"injection\",\"injection\":{\"session_id\":\"s-1\","
                + "\"hook_event_name\":\"UserPromptSubmit\",\"injected_at\":\"2025-06-01T10:16:00Z\","
                + "\"band\":\"loud\",\"chars\":1,\"items\":[]}}");
        InjectionRecorder.record(home,
                new Injection("s-1", null, "SessionStart", INJECTED_AT.plusSeconds(60), "session_start", 0, List.of()));
        spool.seal();

        ingest(2);
        List<List<Object>> first = snapshot();
        ingest(3);
        ingest(100);

        assertThat(snapshot()).isEqualTo(first);
        assertThat(rows("SELECT count(*) FROM events")).containsExactly(List.of(1L));
        assertThat(rows("SELECT hook_event_name, band, spool_line FROM injections ORDER BY spool_line"))
            .containsExactly(List.of("UserPromptSubmit", "suggested", 2L),
                    List.of("SessionStart", "session_start", 4L));
        assertThat(rows("SELECT count(*) FROM injection_items")).containsExactly(List.of(1L));
        assertThat(rows("SELECT spool_line, reason, received_at::VARCHAR FROM event_rejects")).containsExactly(List
            .of(3L, "invalid injection record: band must be one of [continuity, high, none, session_start, suggested],"
                    + " was 'loud'", "2025-06-01 10:16:00"));
    }

    @Test
    void stepResumedFromItsSavedPositionWritesEveryInjectionOnce() throws Exception {
        for (int i = 0; i < 5; i++) {
            SpoolLineBuilder.Line prompt = hookSpools("{\"session_id\":\"s-" + i + "\","
                    + "\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"p" + i + "\"}");
            InjectionRecorder.record(home,
                    new Injection("s-" + i, prompt.eventId(), "UserPromptSubmit", INJECTED_AT.plusSeconds(i), "high",
                            10 + i, List.of(new Injection.Item("mem:c" + i, "m-" + i, 1, 0.9))));
        }
        spool.seal();

        // a run that commits two chunks of three lines, then dies: the last saved
        // position is after line 6
        ExecutionContext saved = new ExecutionContext();
        SpoolLineReader crashed = reader();
        crashed.open(saved);
        for (int chunk = 0; chunk < 2; chunk++) {
            writeChunk(crashed, 3);
            crashed.update(saved);
        }
        writeChunk(crashed, 3); // written to DuckDB, but the crash comes before batch
                                // metadata saves the position
        crashed.close();
        assertThat(rows("SELECT count(*) FROM injections")).containsExactly(List.of(4L));

        SpoolLineReader resumed = reader();
        resumed.open(saved);
        while (writeChunk(resumed, 3) > 0) {
            resumed.update(saved);
        }
        resumed.close();

        assertThat(rows("SELECT count(*), count(DISTINCT injection_id), min(chars), max(chars) FROM injections"))
            .containsExactly(List.of(5L, 5L, 10, 14));
        assertThat(rows("SELECT count(*) FROM injection_items")).containsExactly(List.of(5L));
        assertThat(rows("SELECT count(*) FROM injections i JOIN events e ON e.event_id = i.prompt_event_id"))
            .containsExactly(List.of(5L));
    }

    // ---- helpers ----

    /** What the hook does with a prompt: build the line and append it. */
    private SpoolLineBuilder.Line hookSpools(String hookJson) throws IOException {
        SpoolLineBuilder.Line line = SpoolLineBuilder.defaults()
            .build(hookJson.getBytes(StandardCharsets.UTF_8), PROMPT_AT, "hook", null);
        spool.append(line.json());
        return line;
    }

    /** One pass of the ingest step over every sealed file, in chunks. */
    private void ingest(int chunkSize) {
        SpoolLineReader reader = reader();
        reader.open(new ExecutionContext());
        while (writeChunk(reader, chunkSize) > 0) {
            // next chunk
        }
        reader.close();
    }

    private int writeChunk(SpoolLineReader reader, int size) {
        List<IngestRecord> items = new ArrayList<>();
        SpoolLine line;
        while (items.size() < size && (line = reader.read()) != null) {
            items.add(processor.process(line));
        }
        if (!items.isEmpty()) {
            new DuckDbIngestWriter(session::connection).write(new Chunk<>(items));
        }
        return items.size();
    }

    private SpoolLineReader reader() {
        return new SpoolLineReader(() -> {
            try {
                return spool.sealedFiles();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private List<List<Object>> snapshot() throws SQLException {
        List<List<Object>> all = new ArrayList<>();
        all.addAll(rows("SELECT * FROM events ORDER BY seq"));
        all.addAll(rows("SELECT * FROM injections ORDER BY injection_id"));
        all.addAll(rows("SELECT * FROM injection_items ORDER BY injection_id, rank"));
        all.addAll(rows("SELECT * FROM event_rejects ORDER BY reject_id"));
        return all;
    }

    private List<List<Object>> rows(String sql) throws SQLException {
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return JobsJar.rows(rs);
        }
    }

}
