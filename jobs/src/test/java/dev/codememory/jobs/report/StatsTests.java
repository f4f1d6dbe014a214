package dev.codememory.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.spool.Spool;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.invocation.Invocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Stats} in this process, on a real DuckDB home: the data and its lines. */
@SuppressWarnings("unchecked")
class StatsTests {

    @TempDir
    Path tmp;

    @Test
    void aHomeWithoutADatabaseSaysSoAndCountsTheSpool() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        Spool.forHome(home).appendAll(List.of("{\"received_at\":\"2026-03-01T09:00:00Z\"}", "{}"));

        Stats.Report report = Stats.collect(Invocation.local(home));

        assertThat(report.exit()).isZero();
        assertThat(report.problem()).isEmpty();
        assertThat(report.doc()).containsEntry("store",
                "no memory yet: install the hooks, import your transcripts, or try `demo`");
        assertThat((Map<String, Object>) report.doc().get("spool")).containsEntry("lines", 2L)
            .containsEntry("oldest_received_at", "2026-03-01T09:00:00Z");
        assertThat(Stats.text(report.doc())).contains("store       no memory yet")
            .contains("spool       2 line(s) waiting to be ingested, the oldest received 2026-03-01T09:00:00Z");
    }

    @Test
    void countsWhatTheStoreHoldsByKindAndState() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));
        try (DuckDb.Session session = DuckDb.forHome(home).open();
                Connection c = session.connection();
                Statement st = c.createStatement()) {
            st.execute(event("ev1", 1, "UserPromptSubmit"));
            st.execute(event("ev2", 2, "Stop"));
            st.execute(event("ev3", 3, "Stop"));
            st.execute(entry("e1", "decision", "active"));
            st.execute(entry("e2", "decision", "active"));
            st.execute(entry("e3", "preference", "active"));
            st.execute(entry("e4", "decision", "superseded"));
        }

        Stats.Report report = Stats.collect(Invocation.local(home));

        assertThat(report.exit()).as(report.problem()).isZero();
        Map<?, ?> events = (Map<?, ?>) report.doc().get("events");
        assertThat(events.get("total")).isEqualTo(3L);
        assertThat((Map<String, Object>) events.get("by_type")).containsEntry("Stop", 2L)
            .containsEntry("UserPromptSubmit", 1L);
        Map<?, ?> memories = (Map<?, ?>) report.doc().get("memories");
        assertThat(memories.get("verified_active")).isEqualTo(3L);
        assertThat((Map<String, Object>) memories.get("by_kind")).containsEntry("decision", 2L)
            .containsEntry("preference", 1L);
        assertThat(Stats.text(report.doc())).contains("events      3 (")
            .contains("memories    3 verified and active (");
    }

    private static String event(String id, int seq, String type) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '2026-03-01 09:00:00', '2026-03-01 09:00:00', '" + type + "', 's-1', '/p', 'hook', '{}', 'c',"
                + " 'f', " + seq + ")";
    }

    private static String entry(String id, String kind, String status) {
        return "INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,"
                + " quotes_json, canonical_key, stage, status, created_at) VALUES ('" + id + "', 'c" + id + "', '"
                + kind + "', '/p', 's-1', '2026-03-01 09:00:00', 't', 'b', '[]', 'k" + id + "', 'verified', '" + status
                + "', '2026-03-01 09:00:00')";
    }

}
