package dev.codememory.readers.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.db.SchemaMigrator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReportQueriesTests {

    private final LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS);

    private Connection c;

    @BeforeEach
    void createDatabase() throws SQLException {
        c = DriverManager.getConnection("jdbc:duckdb:");
        new SchemaMigrator().migrate(c);
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void lagIsMeasuredFromTheNewestSourceEventOverTheNewestMemoriesOfThirtyDays() throws SQLException {
        try (Statement st = c.createStatement()) {
            // m1: events captured 100 s and 40 s before it (the newer counts: 40 s)
            st.execute(event("ev1", 1, now.minusSeconds(3_700)));
            st.execute(event("ev2", 2, now.minusSeconds(3_640)));
            st.execute(entry("m1", now.minusSeconds(3_600)));
            st.execute(span("m1", 0, "ev1"));
            st.execute(span("m1", 1, "ev2"));
            // m2: 120 s
            st.execute(event("ev3", 3, now.minusSeconds(1_920)));
            st.execute(entry("m2", now.minusSeconds(1_800)));
            st.execute(span("m2", 0, "ev3"));
            // m3: verified 40 days ago, outside the window
            st.execute(event("ev4", 4, now.minusDays(40).minusSeconds(5)));
            st.execute(entry("m3", now.minusDays(40)));
            st.execute(span("m3", 0, "ev4"));
        }
        ReportQueries.Lag lag = ReportQueries.lag(c);
        assertThat(lag.memoriesMeasured()).isEqualTo(2);
        assertThat(lag.medianSeconds()).isEqualTo(80.0);
        assertThat(lag.p95Seconds()).isEqualTo(116.0);
    }

    @Test
    void lagMeasuresAtMostTheNewestSampleOfMemories() throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(event("ev1", 1, now.minusDays(2)));
            st.execute("""
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, quotes_json, canonical_key, stage, status, created_at)
                    SELECT 'm' || i, 'c' || i, 'fact', '/p', 's-1', TIMESTAMP '%s', 't', 'b', '[]', 'k' || i,
                           'verified', 'active', TIMESTAMP '%s' + to_seconds(i)
                    FROM range(%d) t(i)""".formatted(now.minusDays(2), now.minusDays(1),
                    ReportQueries.LAG_SAMPLE + 500));
            st.execute("INSERT INTO evidence_spans SELECT entry_id, 0, 'ev1', 'prompt', 0, 1, 1.0, 'exact', 'h'"
                    + " FROM entries");
        }
        assertThat(ReportQueries.lag(c).memoriesMeasured()).isEqualTo(ReportQueries.LAG_SAMPLE);
    }

    private static String event(String id, int seq, LocalDateTime receivedAt) {
        return "INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project,"
                + " source, payload, checksum, spool_file, spool_line) VALUES ('" + id + "', 'k" + id + "', " + seq
                + ", '" + receivedAt + "', '" + receivedAt + "', 'UserPromptSubmit', 's-1', '/p', 'hook', '{}', 'c',"
                + " 'f', " + seq + ")";
    }

    private static String entry(String id, LocalDateTime createdAt) {
        return """
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                     body, quotes_json, canonical_key, stage, status, created_at)
                VALUES ('%s', 'c-%s', 'fact', '/p', 's-1', '%s', 't', 'b', '[]', 'k-%s', 'verified', 'active', '%s')"""
            .formatted(id, id, createdAt, id, createdAt);
    }

    private static String span(String entry, int quote, String event) {
        return "INSERT INTO evidence_spans VALUES ('" + entry + "', " + quote + ", '" + event
                + "', 'prompt', 0, 1, 1.0, 'exact', 'h" + quote + "')";
    }

}
