package dev.codememory.writers.graduate;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes assembled sessions: each session's row, turns and observations are replaced as a whole in one
 * transaction (they are derived from events, so rewriting them is idempotent). The extractor's progress
 * ({@code extracted_seq}) is kept across rewrites.
 */
public class DuckDbSessionWriter implements ItemWriter<AssembledSession> {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final Supplier<DuckDBConnection> connections;

    public DuckDbSessionWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends AssembledSession> chunk) {
        try (Connection c = connections.get()) {
            c.setAutoCommit(false);
            try {
                for (AssembledSession s : chunk) {
                    write(c, s);
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write " + chunk.size() + " sessions: " + e.getMessage(), e);
        }
    }

    private static void write(Connection c, AssembledSession assembled) throws SQLException {
        SessionInfo s = assembled.session();
        for (String table : new String[] {"turns", "observations"}) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
                ps.setString(1, s.sessionId());
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO sessions (session_id, project, started_at, ended_at, end_reason, branch, first_seq,
                                      last_seq, prompt_count, tool_count, extracted_seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                ON CONFLICT (session_id) DO UPDATE SET project = excluded.project, started_at = excluded.started_at,
                    ended_at = excluded.ended_at, end_reason = excluded.end_reason, branch = excluded.branch,
                    first_seq = excluded.first_seq, last_seq = excluded.last_seq,
                    prompt_count = excluded.prompt_count, tool_count = excluded.tool_count""")) {
            ps.setString(1, s.sessionId());
            ps.setString(2, s.project());
            ps.setObject(3, s.startedAt());
            ps.setObject(4, s.endedAt());
            ps.setString(5, s.endReason());
            ps.setString(6, s.branch());
            ps.setLong(7, s.firstSeq());
            ps.setLong(8, s.lastSeq());
            ps.setInt(9, s.promptCount());
            ps.setInt(10, s.toolCount());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Turn t : assembled.turns()) {
                ps.setString(1, t.turnId());
                ps.setString(2, t.sessionId());
                ps.setString(3, t.project());
                ps.setString(4, t.promptEventId());
                ps.setString(5, t.promptText());
                ps.setString(6, t.replyEventId());
                ps.setString(7, t.replyText());
                ps.setString(8, t.replySource());
                ps.setObject(9, t.promptTs());
                ps.setObject(10, t.replyTs());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO observations VALUES (?, ?, ?, ?, ?::JSON, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Observation o : assembled.observations()) {
                ps.setString(1, o.observationId());
                ps.setString(2, o.sessionId());
                ps.setString(3, o.project());
                ps.setString(4, o.tool());
                ps.setString(5, MAPPER.writeValueAsString(o.files()));
                ps.setString(6, o.command());
                ps.setBoolean(7, o.failed());
                ps.setString(8, o.errorText());
                ps.setObject(9, o.durationMs());
                ps.setObject(10, o.ts());
                ps.setString(11, o.inputText());
                ps.setString(12, o.outputText());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
