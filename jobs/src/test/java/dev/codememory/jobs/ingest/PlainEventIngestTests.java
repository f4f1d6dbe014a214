package dev.codememory.jobs.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.EventIdentity;
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
import dev.codememory.processors.ingest.SpoolLineProcessor;
import dev.codememory.readers.spool.SpoolLineReader;
import dev.codememory.writers.events.DuckDbIngestWriter;
import dev.codememory.writers.injection.InjectionRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * The ingest step's fast path against its reference: the same varied spool through
 * {@link HookEventProcessor} alone (every line parsed into a tree and written again by
 * {@link EventIdentity#payload}) and through {@link SpoolLineProcessor} (plain lines read
 * in one pass, their event text taken as it is) must leave identical rows in every table,
 * and every event id must be the one {@link EventIdentity#eventIdOf} computes from the
 * line.
 */
class PlainEventIngestTests {

    private static final Instant AT = Instant.parse("2025-06-01T10:15:30.123456Z");

    @TempDir
    Path tmp;

    private CodeMemoryHome home;

    private Spool spool;

    private DuckDb.Session reference;

    private DuckDb.Session fast;

    private final SpoolLineBuilder builder = SpoolLineBuilder.defaults();

    private final Map<Long, String> lines = new HashMap<>();

    private int plainLines;

    @BeforeEach
    void createHome() throws IOException {
        home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        spool = Spool.forHome(home);
        Files.createDirectories(tmp.resolve("repo/.git"));
        reference = new DuckDb(tmp.resolve("reference.duckdb"), "1GB", 1).open();
        fast = new DuckDb(tmp.resolve("fast.duckdb"), "1GB", 2).open();
    }

    @AfterEach
    void closeDatabases() {
        reference.close();
        fast.close();
    }

    @Test
    void plainPathWritesTheRowsOfTheFullPathForAVariedSpool() throws Exception {
        spoolVariedLines();

        ingest(reference, new HookEventProcessor(new ProjectResolver())::process, 50);
        ingest(fast, countingPlain(), 50);

        assertThat(plainLines).as("lines that took the plain path").isGreaterThan(1_000);
        assertSameRows();
        List<List<Object>> events = rows(fast, "SELECT spool_line, event_id FROM events ORDER BY seq");
        assertThat(events).hasSizeGreaterThan(900);
        for (List<Object> row : events) {
            String line = lines.get((Long) row.get(0));
            assertThat(EventIdentity.eventIdOf(line)).as(line).isEqualTo(row.get(1));
        }
    }

    @Test
    void bothPathsAddNothingWhenTheSameSpoolIsIngestedAgainInOtherChunks() throws Exception {
        spoolVariedLines();

        ingest(reference, new HookEventProcessor(new ProjectResolver())::process, 1000);
        ingest(fast, countingPlain(), 1000);
        List<List<Object>> first = rows(fast, "SELECT * EXCLUDE (ingested_at) FROM events ORDER BY seq");
        ingest(fast, countingPlain(), 13);
        ingest(fast, new HookEventProcessor(new ProjectResolver())::process, 100);

        assertThat(rows(fast, "SELECT * EXCLUDE (ingested_at) FROM events ORDER BY seq")).isEqualTo(first);
        assertSameRows();
    }

    // ---- the spool ----

    /**
     * Hook, import and transcript lines, plain and not, records, flagged and broken
     * lines, as the hook writes them.
     */
    private void spoolVariedLines() throws IOException {
        Random random = new Random(20251124);
        String repo = tmp.resolve("repo").toString();
        String[] kinds = { "UserPromptSubmit", "PostToolUse", "Stop", "SessionStart", "Notification", "PreToolUse" };
        for (int i = 0; i < 800; i++) {
            StringBuilder hook = new StringBuilder("{\"session_id\":\"s-" + (i % 17) + "\",\"cwd\":\"");
            hook.append(i % 3 == 0 ? repo + "/src" : i % 3 == 1 ? "/tmp/other" : "relative/dir").append("\",");
            hook.append("\"hook_event_name\":\"").append(kinds[i % kinds.length]).append("\",\"tool_input\":");
            value(random, hook, 0, i % 4 != 0);
            hook.append(",\"n\":").append(i % 5 == 0 ? "12345678901234567890123" : Integer.toString(i - 400));
            hook.append('}');
            String source = i % 7 == 0 ? "import" : "hook";
            String origin = i % 11 == 0 ? "history.jsonl:" + i : null;
            SpoolLineBuilder.Line line = i % 13 == 0
                    ? builder.build(hook.toString(), AT, "transcript", "t.jsonl:" + i, "uuid-" + (i % 50) + ":prompt")
                    : builder.build(hook.toString(), AT.plusMillis(i % 9), source, origin);
            spool.append(line.json());
        }
        String[] timestamps = { "2025-06-01T12:00:00.5+02:00", "2025-06-01T10:00:00Z", "2025-06-01T10:00:00.000Z",
                "2025-06-01T10:00:00.123456789Z", "2025-06-01T10:00:07-04:30", "2025-06-01T10:00", "yesterday",
                "2024-02-29T23:59:59.999999Z", "2023-02-29T10:00:00Z", "2025-06-01T24:00:00Z" };
        for (int i = 0; i < 200; i++) {
            String hook = "{\"session_id\":\"h-" + (i % 5) + "\",\"hook_event_name\":\"UserPromptSubmit\","
                    + "\"prompt\":\"p " + i + " é 🙂\",\"timestamp\":\"" + timestamps[i % timestamps.length] + "\"}";
            spool.append(builder.build(hook, AT, "import", "h.jsonl:" + i).json());
        }
        for (int i = 0; i < 100; i++) { // command output with ANSI colours and a DEL: \\u
                                        // escapes in the spool
            String hook = "{\"session_id\":\"a-" + (i % 3) + "\",\"hook_event_name\":\"PostToolUse\",\"tool_response\":"
                    + "{\"stdout\":\"\\u001b[32mok\\u001b[0m " + i + " \u007f\u2028\"}}";
            spool.append(builder.build(hook, AT, "hook", null).json());
        }
        // lines another writer could leave: raw separators, escaped slashes, spaces,
        // repeated keys, odd types
        String received = "\"received_at\":\"2025-06-01T10:15:30.5Z\"";
        for (String raw : List.of(
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"m\":\"a\u2028b\u007fc\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"m\":\"a\\/b\\u00e9\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"m\":\"a\\/b\"}}",
                " { \"spool\" : 1 , " + received
                        + " , \"event\" : { \"hook_event_name\" : \"Stop\" , \"a\" : [ 1 , 2 ] } } ",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"a\":1,\"a\":2}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"o\":{\"k\":1,\"k\":{}}}}",
                "{\"spool\":1," + received + "," + received + ",\"event\":{\"hook_event_name\":\"Stop\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"f\":1.50,\"e\":1E+400}}",
                "{\"spool\":1," + received
                        + ",\"event\":{\"hook_event_name\":\"Stop\",\"z\":-0,\"big\":-98765432109876543210}}",
                "{\"spool\":1," + received + ",\"source\":7,\"event\":{\"hook_event_name\":\"Stop\"}}",
                "{\"spool\":1," + received + ",\"source\":null,\"event\":{\"hook_event_name\":\"Stop\"}}",
                "{\"spool\":1," + received + ",\"identity\":5,\"event\":{\"hook_event_name\":\"Stop\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"session_id\":42,\"cwd\":[]}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\",\"session_id\":\"tab\\there\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Bogus\"}}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":7}}",
                "{\"spool\":1," + received + ",\"event\":[]}",
                "{\"spool\":1,\"received_at\":\"soon\",\"event\":{\"hook_event_name\":\"Stop\"}}",
                "{\"spool\":1," + received + ",\"error\":\"invalid JSON: x\",\"raw\":\"{x\"}",
                "{\"spool\":1," + received + ",\"event\":{\"hook_event_name\":\"Stop\"}} trailing", "[1,2]",
                "{broken")) {
            spool.append(raw);
        }
        spool.append(builder.build("{not json".getBytes(StandardCharsets.UTF_8), AT, "hook", null).json());
        Injection injection = new Injection("s-1", null, "SessionStart", AT, "session_start", 0, List.of());
        InjectionRecorder.record(home, injection);
        InjectionRecorder.record(home, injection);
        Path sealed = spool.seal();
        Files.write(sealed, new byte[] { '{', '"', (byte) 0xC3, '"', '}', '\n' }, StandardOpenOption.APPEND);
        Files.write(sealed,
                "{\"spool\":1,\"received_at\":\"2025-06-01T10:15:30Z\",\"event\":{\"hook_event_name\":\"Stop\"}}"
                    .getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.APPEND); // torn: no '\n'
        List<String> written = Files.readAllLines(sealed, StandardCharsets.ISO_8859_1);
        for (int i = 0; i < written.size(); i++) {
            byte[] bytes = written.get(i).getBytes(StandardCharsets.ISO_8859_1);
            lines.put(i + 1L, new String(bytes, StandardCharsets.UTF_8));
        }
    }

    /**
     * A random JSON value; with {@code plainOnly}, strings without the escapes that send
     * a line the full way.
     */
    private static void value(Random random, StringBuilder out, int depth, boolean plainOnly) {
        switch (random.nextInt(depth > 3 ? 4 : 7)) {
            case 0 -> string(random, out, plainOnly);
            case 1 -> out.append(plainOnly || random.nextBoolean() ? Integer.toString(random.nextInt(2000) - 1000)
                    : random.nextInt(100) + "." + random.nextInt(100));
            case 2 -> out.append(random.nextBoolean());
            case 3 -> out.append("null");
            case 4, 5 -> {
                out.append('{');
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    out.append(i > 0 ? "," : "").append("\"k").append(i).append("\":");
                    value(random, out, depth + 1, plainOnly);
                }
                out.append('}');
            }
            default -> {
                out.append('[');
                for (int i = 0, n = random.nextInt(4); i < n; i++) {
                    out.append(i > 0 ? "," : "");
                    value(random, out, depth + 1, plainOnly);
                }
                out.append(']');
            }
        }
    }

    private static void string(Random random, StringBuilder out, boolean plainOnly) {
        out.append('"');
        for (int i = 0, n = random.nextInt(12); i < n; i++) {
            switch (random.nextInt(plainOnly ? 6 : 8)) {
                case 0 -> out.append(
                        new String[] { "\\n", "\\t", "\\r", "\\b", "\\f", "\\\"", "\\\\", "\\/" }[random.nextInt(8)]);
                case 1 -> out.appendCodePoint(0x1F600 + random.nextInt(50));
                case 2 -> out.append((char) (0xAC00 + random.nextInt(100)));
                case 3 -> out.append((char) (0xA0 + random.nextInt(0x100)));
                case 4 -> out.append("<private>x</private> sk-proj-AbC_dEf-1234567890abcdefXYZ");
                case 6 -> out.append(String.format("\\u%04x", random.nextInt(0x20)));
                case 7 -> out.append(new char[] { '\u007f', '\u2028', '\u2029' }[random.nextInt(3)]);
                default -> out.append((char) ('a' + random.nextInt(26)));
            }
        }
        out.append('"');
    }

    // ---- ingest and compare ----

    /** The fast path, counting the lines it took plain (not handed to the full path). */
    private Function<SpoolLine, IngestRecord> countingPlain() {
        HookEventProcessor full = new HookEventProcessor(new ProjectResolver());
        SpoolLineProcessor processor = new SpoolLineProcessor(new ProjectResolver(), line -> {
            plainLines--;
            return full.process(line);
        });
        return line -> {
            plainLines++;
            return process(processor, line);
        };
    }

    private static IngestRecord process(SpoolLineProcessor processor, SpoolLine line) {
        try {
            return processor.process(line);
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void ingest(DuckDb.Session session, Function<SpoolLine, IngestRecord> processor, int chunkSize) {
        SpoolLineReader reader = new SpoolLineReader(() -> {
            try {
                return spool.sealedFiles();
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        reader.open(new ExecutionContext());
        DuckDbIngestWriter writer = new DuckDbIngestWriter(session::connection);
        List<IngestRecord> chunk = new ArrayList<>();
        SpoolLine line;
        while ((line = reader.read()) != null) {
            chunk.add(processor.apply(line));
            if (chunk.size() == chunkSize) {
                writer.write(new Chunk<>(chunk));
                chunk = new ArrayList<>();
            }
        }
        if (!chunk.isEmpty()) {
            writer.write(new Chunk<>(chunk));
        }
        reader.close();
    }

    private void assertSameRows() throws SQLException {
        for (String sql : List.of("SELECT * EXCLUDE (ingested_at), payload::VARCHAR FROM events ORDER BY seq",
                "SELECT * EXCLUDE (rejected_at) FROM event_rejects ORDER BY spool_line",
                "SELECT * EXCLUDE (ingested_at) FROM injections ORDER BY injection_id")) {
            List<List<Object>> expected = rows(reference, sql);
            assertThat(expected).as(sql).isNotEmpty();
            assertThat(rows(fast, sql)).as(sql).isEqualTo(expected);
        }
    }

    private static List<List<Object>> rows(DuckDb.Session session, String sql) throws SQLException {
        try (Connection c = session.connection();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return JobsJar.rows(rs);
        }
    }

}
