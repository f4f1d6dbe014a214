package dev.codememory.jobs.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.json.Json;
import dev.codememory.retrieval.citation.ContextEvent;
import dev.codememory.writers.citation.DuckDbCitationWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowCommandTests {

    @TempDir
    Path tmp;

    private CodeMemoryHome home;

    private String citation;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void graduatedHome() throws Exception {
        home = new CodeMemoryHome(tmp.resolve("home"));
        try (DuckDb.Session session = DuckDb.forHome(home).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute(event("ev0", 1, "2024-03-01 09:00:00", "SessionStart", "{\"source\":\"startup\"}"));
            st.execute(event("ev1", 2, "2024-03-01 09:01:00", "UserPromptSubmit",
                    "{\"prompt\":\"Which database for invoices?\"}"));
            st.execute(event("ev2", 3, "2024-03-01 09:02:00", "Stop",
                    "{\"last_assistant_message\":\"Use PostgreSQL:\\n we need   row locks.\"}"));
            st.execute(event("ev3", 4, "2024-03-01 09:03:00", "PostToolUse", "{\"tool_name\":\"Bash\"}"));
            st.execute(event("ev4", 5, "2024-03-01 09:04:00", "UserPromptSubmit", "{\"prompt\":\"Thanks\"}"));
            st.execute(event("ev5", 6, "2024-03-01 09:05:00", "SessionEnd", "{\"reason\":\"other\"}"));
            st.execute("""
                    INSERT INTO turns VALUES
                      ('t1', 's-1', '/p', 'ev1', 'Which database for invoices?', 'ev2',
                       'Use PostgreSQL:' || chr(10) || ' we need   row locks.', 'stop',
                       '2024-03-01 09:01:00', '2024-03-01 09:02:00'),
                      ('t2', 's-1', '/p', 'ev4', 'Thanks', NULL, NULL, NULL, '2024-03-01 09:04:00', NULL)""");
            st.execute("""
                    INSERT INTO observations VALUES ('ev3', 's-1', '/p', 'Bash', '[]', 'psql -c ''select 1''', false,
                      NULL, 12, '2024-03-01 09:03:00', '{"command":"psql -c ''select 1''"}', '1')""");
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    VALUES ('e1', 'c1', 'decision', '/p', 's-1', '2024-03-01 09:02:00', 'Use PostgreSQL for invoices',
                            'Use PostgreSQL for invoices: row locks.', '[]', 'k1', 'verified', 'active',
                            '2024-03-01 09:02:00')""");
            st.execute("INSERT INTO evidence_spans VALUES ('e1', 0, 'ev2', 'reply', 0, 14, 1.0, 'exact', 'h0'),"
                    + " ('e1', 1, 'ev2', 'reply', 17, 36, 0.95, 'whitespace', 'h1')");
            new DuckDbCitationWriter(session::connection).assignMissing();
        }
        citation = Citation.of("e1");
    }

    private static String event(String id, int seq, String ts, String type, String payload) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '" + ts + "', '" + ts + "', '" + type + "', 's-1', '/p', 'import', '" + payload + "', 'c', 'f', "
                + seq + ")";
    }

    private int show(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "show";
        System.arraycopy(args, 0, all, 1, args.length);
        return ShowCommand.run(all, home, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void printsTheMemoryItsQuotedEvidenceAndTheEventsAroundItsSources() {
        assertThat(show(citation)).as(stderr()).isZero();

        assertThat(stdout()).isEqualTo("""
                [%s] decision, active, verified
                id:       e1
                project:  /p
                session:  s-1
                created:  2024-03-01T09:02:00Z
                title:    Use PostgreSQL for invoices

                Use PostgreSQL for invoices: row locks.

                evidence (2 spans; quoted as recorded, tool output is data):
                  #0 reply of event ev2 [0, 14) exact 1.00, Claude's reply
                      Use PostgreSQL
                  #1 reply of event ev2 [17, 36) whitespace 0.95, Claude's reply
                      we need   row locks

                source events (> source, with the events before and after):
                  session s-1:
                    2024-03-01T09:01:00Z  UserPromptSubmit Which database for invoices?
                  > 2024-03-01T09:02:00Z  Stop             Use PostgreSQL: we need row locks.
                    2024-03-01T09:03:00Z  PostToolUse      Bash {"command":"psql -c 'select 1'"} → 1
                """.formatted(citation));
        assertThat(stderr()).isEmpty();
    }

    @Test
    void acceptsTheCitationBracketedOrBare() {
        assertThat(show("[" + citation + "]")).isZero();
        assertThat(show(citation.substring(Citation.PREFIX.length()))).isZero();
        assertThat(stdout()).contains("[" + citation + "] decision");
    }

    @Test
    void printsOneJsonObjectWithTheSameContent() {
        assertThat(show("--json", citation)).as(stderr()).isZero();

        assertThat(stdout().lines().count()).isEqualTo(1);
        assertThat(Json.write(Json.parse(stdout()))).isEqualTo(("{\"citation\":\"%s\",\"memory_id\":\"e1\","
                + "\"kind\":\"decision\",\"status\":\"active\",\"stage\":\"verified\",\"superseded_by\":null,"
                + "\"project\":\"/p\",\"session_id\":\"s-1\",\"created_ts\":\"2024-03-01T09:02:00Z\","
                + "\"title\":\"Use PostgreSQL for invoices\",\"body\":\"Use PostgreSQL for invoices: row locks.\","
                + "\"evidence\":[{\"quote_index\":0,\"event_id\":\"ev2\",\"field\":\"reply\",\"start\":0,\"end\":14,"
                + "\"confidence\":1.0,\"method\":\"exact\",\"provenance\":\"Claude's reply\",\"quote\":\"Use PostgreSQL\"},"
                + "{\"quote_index\":1,\"event_id\":\"ev2\",\"field\":\"reply\",\"start\":17,\"end\":36,"
                + "\"confidence\":0.95,\"method\":\"whitespace\",\"provenance\":\"Claude's reply\",\"quote\":\"we need   row locks\"}],"
                + "\"events\":[{\"event_id\":\"ev1\",\"session_id\":\"s-1\",\"ts\":\"2024-03-01T09:01:00Z\","
                + "\"event_type\":\"UserPromptSubmit\",\"source\":false,\"preview\":\"Which database for invoices?\"},"
                + "{\"event_id\":\"ev2\",\"session_id\":\"s-1\",\"ts\":\"2024-03-01T09:02:00Z\","
                + "\"event_type\":\"Stop\",\"source\":true,\"preview\":\"Use PostgreSQL: we need row locks.\"},"
                + "{\"event_id\":\"ev3\",\"session_id\":\"s-1\",\"ts\":\"2024-03-01T09:03:00Z\","
                + "\"event_type\":\"PostToolUse\",\"source\":false,"
                + "\"preview\":\"Bash {\\\"command\\\":\\\"psql -c 'select 1'\\\"} → 1\"}]}")
            .formatted(citation));
    }

    /**
     * A reply with no prompt before it is a turn of its own (empty prompt, the Stop as
     * both its prompt and its reply event): its event shows the reply, as Claude's.
     */
    @Test
    void aReplyWithoutAPromptShowsItsTextAsClaudes() throws Exception {
        String reply = "Rate limits now live in the gateway, keyed by API token.";
        try (DuckDb.Session session = DuckDb.forHome(home).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute(event("ev_7a000001", 7, "2024-03-02 10:00:00", "Stop",
                    "{\"last_assistant_message\":\"" + reply + "\"}")
                .replace("'s-1'", "'s-2'"));
            st.execute("INSERT INTO turns VALUES ('t3', 's-2', '/p', 'ev_7a000001', '', 'ev_7a000001', '" + reply
                    + "', 'stop', '2024-03-02 10:00:00', '2024-03-02 10:00:00')");
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    VALUES ('e2', 'c2', 'decision', '/p', 's-2', '2024-03-02 10:00:00', 'Rate limits in the gateway',
                            'Rate limits live in the gateway.', '[]', 'k2', 'verified', 'active',
                            '2024-03-02 10:00:00')""");
            st.execute(
                    "INSERT INTO evidence_spans VALUES ('e2', 0, 'ev_7a000001', 'reply', 0, 56, 1.0, 'exact', 'h2')");
            new DuckDbCitationWriter(session::connection).assignMissing();
        }

        assertThat(show(Citation.of("e2"))).as(stderr()).isZero();
        assertThat(stdout()).endsWith("""
                source events (> source, with the events before and after):
                  session s-2:
                  > 2024-03-02T10:00:00Z  Stop             %s
                """.formatted(reply));

        out.reset();
        assertThat(show("ev:7a000001")).as(stderr()).isZero();
        assertThat(stdout()).isEqualTo("""
                [ev:7a000001] event Stop
                id:       ev_7a000001
                project:  /p
                session:  s-2
                time:     2024-03-02T10:00:00Z
                Claude:   %s
                """.formatted(reply));
        out.reset();
        assertThat(show("--json", "ev:7a000001")).isZero();
        assertThat(((Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(stdout())).get("events")).get(0)).get("reply"))
            .isEqualTo(reply);
    }

    @Test
    void anUnknownCitationExitsOneWithAMessage() {
        String unknown = citation.equals("mem:zzzzzz") ? "mem:yyyyyy" : "mem:zzzzzz";

        assertThat(show(unknown)).isEqualTo(1);

        assertThat(stdout()).isEmpty();
        assertThat(stderr()).isEqualTo("unknown citation: " + unknown + System.lineSeparator());
    }

    @Test
    void badArgumentsAreAUsageError() {
        assertThat(show()).isEqualTo(2);
        assertThat(show("mem:abc")).isEqualTo(2);
        assertThat(show("--verbose", citation)).isEqualTo(2);
        assertThat(show(citation, citation)).isEqualTo(2);

        assertThat(stdout()).isEmpty();
        assertThat(stderr()).contains("Missing required parameter: 'CITATION'", "not a citation: mem:abc",
                "Unknown option: '--verbose'", "Unmatched argument at index 1", "Usage: show [-hV] [--json] CITATION");
    }

    @Test
    void withoutADatabaseThereIsNothingToShow() {
        home = new CodeMemoryHome(tmp.resolve("empty-home"));

        assertThat(show(citation)).isEqualTo(1);

        assertThat(stderr()).contains("no memory yet");
        assertThat(home.database()).doesNotExist();
    }

    @Test
    void previewIsOneLineOfAtMostTwoHundredCharacters() {
        String longPrompt = "word\n\t".repeat(100);
        ContextEvent e = new ContextEvent("ev", "s", 1, 1, LocalDateTime.of(2024, 1, 1, 0, 0), "UserPromptSubmit",
                false, longPrompt, null, null, null, null, null);

        String preview = ShownMemory.preview(e);

        assertThat(preview).hasSize(200).endsWith("…").doesNotContain("\n", "\t", "  ").startsWith("word word");
        assertThat(ShownMemory
            .preview(new ContextEvent("ev", "s", 1, 1, null, "SessionEnd", false, null, null, null, null, null, null)))
            .isEmpty();
    }

}
