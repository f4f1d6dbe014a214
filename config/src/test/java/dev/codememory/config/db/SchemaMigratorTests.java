package dev.codememory.config.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SchemaMigratorTests {

    private Connection connection;

    @BeforeEach
    void openInMemoryDatabase() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void closeDatabase() throws SQLException {
        connection.close();
    }

    @Test
    void migrateCreatesTheFoundationAndGraduationTables() throws SQLException {
        new SchemaMigrator().migrate(connection);

        assertThat(query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'"
                + " ORDER BY table_name"))
            .containsExactly("build_runs", "candidates", "citations", "derivations", "distill_answers", "distill_calls",
                    "edges", "entities", "entity_aliases", "entries", "event_rejects", "events", "evidence_spans",
                    "forgotten", "graduation_rejects", "injection_items", "injections", "observations",
                    "pipeline_metrics", "processing_watermarks", "schema_migrations", "session_continuity", "sessions",
                    "stage_marks", "task_events", "team_marks", "team_published", "turns", "vector_outbox",
                    "working_set");
    }

    @Test
    void migrateCreatesEveryColumnWithItsType() throws SQLException {
        new SchemaMigrator().migrate(connection);

        assertThat(columns("events")).containsExactly("event_id VARCHAR NO", "dedupe_key VARCHAR NO", "seq BIGINT NO",
                "ts TIMESTAMP NO", "received_at TIMESTAMP NO", "event_type VARCHAR NO", "session_id VARCHAR YES",
                "project VARCHAR NO", "cwd VARCHAR YES", "source VARCHAR NO", "payload JSON NO", "checksum VARCHAR NO",
                "spool_file VARCHAR NO", "spool_line BIGINT NO", "ingested_at TIMESTAMP NO");
        assertThat(columns("event_rejects")).containsExactly("reject_id VARCHAR NO", "spool_file VARCHAR NO",
                "spool_line BIGINT NO", "reason VARCHAR NO", "raw_text VARCHAR NO", "received_at TIMESTAMP YES",
                "rejected_at TIMESTAMP NO");
        assertThat(columns("processing_watermarks")).containsExactly("stage VARCHAR NO", "last_seq BIGINT NO",
                "updated_at TIMESTAMP NO");
        assertThat(columns("build_runs")).containsExactly("build_id VARCHAR NO", "job_name VARCHAR NO",
                "job_execution_id BIGINT NO", "started_at TIMESTAMP NO", "finished_at TIMESTAMP YES",
                "status VARCHAR NO", "schema_version INTEGER NO", "error VARCHAR YES");
        assertThat(columns("pipeline_metrics")).containsExactly("build_id VARCHAR NO", "step_name VARCHAR NO",
                "step_execution_id BIGINT NO", "status VARCHAR NO", "read_count BIGINT NO", "write_count BIGINT NO",
                "filter_count BIGINT NO", "skip_count BIGINT NO", "commit_count BIGINT NO", "duration_ms BIGINT NO",
                "recorded_at TIMESTAMP NO");
        assertThat(columns("citations")).containsExactly("citation VARCHAR NO", "memory_id VARCHAR NO",
                "created_at TIMESTAMP NO");
        assertThat(columns("derivations")).containsExactly("component VARCHAR NO", "version VARCHAR NO",
                "applied_at TIMESTAMP NO");
        assertThat(columns("schema_migrations")).containsExactly("version INTEGER NO", "script VARCHAR NO",
                "applied_at TIMESTAMP NO");
        assertThat(columns("injections")).containsExactly("injection_id VARCHAR NO", "session_id VARCHAR YES",
                "prompt_event_id VARCHAR YES", "hook_event_name VARCHAR NO", "band VARCHAR NO", "chars INTEGER NO",
                "injected_at TIMESTAMP NO", "spool_file VARCHAR NO", "spool_line BIGINT NO",
                "ingested_at TIMESTAMP NO");
        assertThat(columns("injection_items")).containsExactly("injection_id VARCHAR NO", "rank INTEGER NO",
                "citation VARCHAR NO", "memory_id VARCHAR NO", "score DOUBLE NO");
        assertThat(columns("forgotten")).containsExactly("kind VARCHAR NO", "key VARCHAR NO", "forget_id VARCHAR NO",
                "forgotten_at TIMESTAMP NO");
    }

    @Test
    void migrateRecordsEveryScriptInOrder() throws SQLException {
        LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);

        new SchemaMigrator().migrate(connection);

        LocalDateTime after = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        try (Statement st = connection.createStatement();
                ResultSet rs = st
                    .executeQuery("SELECT version, script, applied_at FROM schema_migrations ORDER BY version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(1);
            assertThat(rs.getString("script")).isEqualTo("V001__foundation.sql");
            assertThat(rs.getObject("applied_at", LocalDateTime.class)).isBetween(before, after);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(2);
            assertThat(rs.getString("script")).isEqualTo("V002__graduation.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(3);
            assertThat(rs.getString("script")).isEqualTo("V003__vectors.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(4);
            assertThat(rs.getString("script")).isEqualTo("V004__citations.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(5);
            assertThat(rs.getString("script")).isEqualTo("V005__injections.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(6);
            assertThat(rs.getString("script")).isEqualTo("V006__derivations.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(7);
            assertThat(rs.getString("script")).isEqualTo("V007__forget.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(8);
            assertThat(rs.getString("script")).isEqualTo("V008__evidence_by_entry.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(9);
            assertThat(rs.getString("script")).isEqualTo("V009__events_keyed_once.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(10);
            assertThat(rs.getString("script")).isEqualTo("V010__team.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(11);
            assertThat(rs.getString("script")).isEqualTo("V011__continuity.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(12);
            assertThat(rs.getString("script")).isEqualTo("V012__team_marks.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(13);
            assertThat(rs.getString("script")).isEqualTo("V013__turn_lookups.sql");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt("version")).isEqualTo(14);
            assertThat(rs.getString("script")).isEqualTo("V014__distill.sql");
            assertThat(rs.next()).isFalse();
        }
        assertThat(SchemaMigrator.currentVersion(connection)).isEqualTo(14);
        assertThat(SchemaMigrator.latestVersion()).isEqualTo(14);
    }

    @Test
    void aMemorysEvidenceIsIndexedByTheMemory() throws SQLException {
        new SchemaMigrator().migrate(connection);

        assertThat(single("SELECT expressions FROM duckdb_indexes() WHERE index_name = 'idx_spans_entry'"
                + " AND table_name = 'evidence_spans'", String.class))
            .isEqualTo("[entry_id]");
    }

    @Test
    void migratingTwiceAppliesNothingTheSecondTime() throws SQLException {
        SchemaMigrator migrator = new SchemaMigrator();
        migrator.migrate(connection);
        Timestamp firstAppliedAt = single("SELECT applied_at FROM schema_migrations WHERE version = 1",
                Timestamp.class);

        migrator.migrate(connection);
        new SchemaMigrator().migrate(connection);

        try (Statement st = connection.createStatement();
                ResultSet rs = st
                    .executeQuery("SELECT version, script, applied_at FROM schema_migrations ORDER BY version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.getString(2)).isEqualTo("V001__foundation.sql");
            assertThat(rs.getTimestamp(3)).isEqualTo(firstAppliedAt);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(3);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(4);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(5);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(6);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(7);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(8);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(9);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(10);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(11);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(12);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(13);
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(14);
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void migrationKeepsExistingRows() throws SQLException {
        new SchemaMigrator().migrate(connection);
        try (Statement st = connection.createStatement()) {
            st.executeUpdate(
                    "INSERT INTO processing_watermarks VALUES ('extract', 42, TIMESTAMP '2025-06-01 10:00:00')");
        }

        new SchemaMigrator().migrate(connection);

        try (Statement st = connection.createStatement();
                ResultSet rs = st.executeQuery("SELECT stage, last_seq, updated_at FROM processing_watermarks")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("extract");
            assertThat(rs.getLong(2)).isEqualTo(42);
            assertThat(rs.getObject(3, LocalDateTime.class)).isEqualTo(LocalDateTime.of(2025, 6, 1, 10, 0));
            assertThat(rs.next()).isFalse();
        }
    }

    @Test
    void eventsKeepTheirRowsAndOnlyThePrimaryKeyAndTheSessionIndex() throws SQLException {
        new SchemaMigrator().migrate(connection, 8);
        String columns = "event_id, dedupe_key, seq, ts, received_at, event_type, session_id, project, cwd, source,"
                + " payload, checksum, spool_file, spool_line, ingested_at";
        try (Statement st = connection.createStatement()) {
            st.executeUpdate("INSERT INTO events (" + columns + ") VALUES"
                    + " ('ev_b', 'b', 2, TIMESTAMP '2026-01-01 10:00:01', TIMESTAMP '2026-01-01 10:00:02', 'Stop',"
                    + " 's1', '/p', '/p', 'hook', '{\"x\":2}', 'c2', 'f', 2, TIMESTAMP '2026-01-02 00:00:00'),"
                    + " ('ev_a', 'a', 1, TIMESTAMP '2026-01-01 10:00:00', TIMESTAMP '2026-01-01 10:00:00',"
                    + " 'UserPromptSubmit', NULL, '/p', NULL, 'transcript', '{\"x\":1}', 'c1', 'f', 1,"
                    + " TIMESTAMP '2026-01-02 00:00:00')");
        }
        List<String> before = query("SELECT concat_ws('|', " + columns + ") FROM events ORDER BY seq");

        new SchemaMigrator().migrate(connection);

        assertThat(query("SELECT concat_ws('|', " + columns + ") FROM events ORDER BY seq")).hasSize(2)
            .isEqualTo(before);
        assertThat(columns("events")).containsExactly("event_id VARCHAR NO", "dedupe_key VARCHAR NO", "seq BIGINT NO",
                "ts TIMESTAMP NO", "received_at TIMESTAMP NO", "event_type VARCHAR NO", "session_id VARCHAR YES",
                "project VARCHAR NO", "cwd VARCHAR YES", "source VARCHAR NO", "payload JSON NO", "checksum VARCHAR NO",
                "spool_file VARCHAR NO", "spool_line BIGINT NO", "ingested_at TIMESTAMP NO");
        assertThat(query("SELECT constraint_type || ' ' || constraint_column_names::VARCHAR FROM duckdb_constraints()"
                + " WHERE table_name = 'events' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')"))
            .containsExactly("PRIMARY KEY [event_id]");
        assertThat(query("SELECT index_name || ' ' || expressions FROM duckdb_indexes() WHERE table_name = 'events'"))
            .containsExactly("idx_events_session [session_id]");
        try (Statement st = connection.createStatement()) {
            st.executeUpdate("INSERT INTO events (event_id, dedupe_key, seq, ts, received_at, event_type, project,"
                    + " source, payload, checksum, spool_file, spool_line) VALUES ('ev_c', 'c', 3, TIMESTAMP"
                    + " '2026-01-01 10:00:03', TIMESTAMP '2026-01-01 10:00:03', 'Stop', '/p', 'hook', '{}', 'c3',"
                    + " 'f', 3)");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO events (event_id, dedupe_key, seq, ts,"
                    + " received_at, event_type, project, source, payload, checksum, spool_file, spool_line) VALUES"
                    + " ('ev_c', 'c', 4, TIMESTAMP '2026-01-01 10:00:04', TIMESTAMP '2026-01-01 10:00:04', 'Stop',"
                    + " '/p', 'hook', '{}', 'c3', 'f', 4)"))
                .hasMessageContaining("Duplicate key");
        }
    }

    @Test
    void currentVersionIsZeroBeforeAnyMigration() throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, script VARCHAR NOT NULL,"
                    + " applied_at TIMESTAMP NOT NULL)");
        }

        assertThat(SchemaMigrator.currentVersion(connection)).isZero();
    }

    @Test
    void autoCommitIsRestoredAfterMigrating() throws SQLException {
        assertThat(connection.getAutoCommit()).isTrue();

        new SchemaMigrator().migrate(connection);

        assertThat(connection.getAutoCommit()).isTrue();
    }

    @Test
    void statementsSplitsOnSemicolonsAtLineEndsAndDropsComments() {
        String script = """
                -- header comment; with a semicolon
                CREATE TABLE a (
                  id INTEGER, -- the id; not the end
                  name VARCHAR
                );

                -- between statements
                CREATE INDEX i ON a(id); -- trailing comment
                   INSERT INTO a VALUES (1, 'x;y');
                -- a comment-only tail
                """;

        assertThat(SchemaMigrator.statements(script)).containsExactly(
                "CREATE TABLE a (\n  id INTEGER, \n  name VARCHAR\n)", "CREATE INDEX i ON a(id)",
                "INSERT INTO a VALUES (1, 'x;y')");
    }

    @Test
    void statementsHandlesCrLfAndMissingFinalNewline() {
        assertThat(SchemaMigrator.statements("CREATE TABLE a (x INTEGER);\r\n-- c\r\nCREATE TABLE b (y INTEGER);"))
            .containsExactly("CREATE TABLE a (x INTEGER)", "CREATE TABLE b (y INTEGER)");
    }

    @Test
    void statementsKeepsSemicolonsInsideALine() {
        assertThat(SchemaMigrator.statements("SELECT 1; SELECT 2;\n")).containsExactly("SELECT 1; SELECT 2");
    }

    @Test
    void statementsOfACommentOnlyScriptIsEmpty() {
        assertThat(SchemaMigrator.statements("-- nothing\n\n   \n-- here;\n")).isEmpty();
        assertThat(SchemaMigrator.statements("")).isEmpty();
    }

    @Test
    void splitStatementsRunOnDuckDb() throws SQLException {
        List<String> statements = SchemaMigrator.statements("""
                CREATE TABLE a (  -- a table
                  id INTEGER
                );
                INSERT INTO a VALUES (1); -- one
                INSERT INTO a VALUES (2);
                """);
        try (Statement st = connection.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }

        assertThat(statements).hasSize(3);
        assertThat(query("SELECT id FROM a ORDER BY id")).containsExactly("1", "2");
    }

    private List<String> columns(String table) throws SQLException {
        return query("SELECT column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns"
                + " WHERE table_schema = 'main' AND table_name = '" + table + "' ORDER BY ordinal_position");
    }

    private List<String> query(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    private <T> T single(String sql, Class<T> type) throws SQLException {
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            T value = rs.getObject(1, type);
            assertThat(rs.next()).isFalse();
            return value;
        }
    }

}
