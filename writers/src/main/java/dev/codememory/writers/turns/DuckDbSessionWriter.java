package dev.codememory.writers.turns;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.Turn;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes assembled sessions: each session's row, turns and observations are replaced as a
 * whole in one transaction (they are derived from events, so rewriting them is
 * idempotent). The extractor's progress ({@code extracted_seq}) is kept across rewrites.
 * Rows are staged through the Appender and applied set-based.
 */
public class DuckDbSessionWriter implements ItemWriter<AssembledSession> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbSessionWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends AssembledSession> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " sessions", c -> {
            stage(c, chunk);
            Staging.execute(c,
                    "DELETE FROM turns WHERE session_id IN (SELECT session_id FROM temp.main.stage_sessions)");
            Staging.execute(c, "DELETE FROM observations WHERE session_id IN "
                    + "(SELECT session_id FROM temp.main.stage_sessions)");
            Staging.execute(c, """
                    INSERT INTO sessions (session_id, project, started_at, ended_at, end_reason, branch, first_seq,
                                          last_seq, prompt_count, tool_count, extracted_seq)
                    SELECT *, 0 FROM temp.main.stage_sessions
                    ON CONFLICT (session_id) DO UPDATE SET project = excluded.project,
                        started_at = excluded.started_at, ended_at = excluded.ended_at,
                        end_reason = excluded.end_reason, branch = excluded.branch, first_seq = excluded.first_seq,
                        last_seq = excluded.last_seq, prompt_count = excluded.prompt_count,
                        tool_count = excluded.tool_count""");
            Staging.execute(c, "INSERT INTO turns SELECT * FROM temp.main.stage_turns");
            Staging.execute(c,
                    """
                            INSERT INTO observations SELECT observation_id, session_id, project, tool, files::JSON, command,
                                failed, error_text, duration_ms, ts, input_text, output_text FROM temp.main.stage_observations""");
            return null;
        });
    }

    private static void stage(DuckDBConnection c, Chunk<? extends AssembledSession> chunk) throws SQLException {
        try (DuckDBAppender sessions = Staging.table(c, "stage_sessions", "session_id VARCHAR, project VARCHAR,"
                + " started_at TIMESTAMP, ended_at TIMESTAMP, end_reason VARCHAR, branch VARCHAR, first_seq BIGINT,"
                + " last_seq BIGINT, prompt_count INTEGER, tool_count INTEGER");
                DuckDBAppender turns = Staging.table(c, "stage_turns", "turn_id VARCHAR, session_id VARCHAR,"
                        + " project VARCHAR, prompt_event_id VARCHAR, prompt_text VARCHAR, reply_event_id VARCHAR,"
                        + " reply_text VARCHAR, reply_source VARCHAR, prompt_ts TIMESTAMP, reply_ts TIMESTAMP");
                DuckDBAppender observations = Staging.table(c, "stage_observations", "observation_id VARCHAR,"
                        + " session_id VARCHAR, project VARCHAR, tool VARCHAR, files VARCHAR, command VARCHAR,"
                        + " failed BOOLEAN, error_text VARCHAR, duration_ms BIGINT, ts TIMESTAMP, input_text VARCHAR,"
                        + " output_text VARCHAR")) {
            for (AssembledSession a : chunk) {
                SessionInfo s = a.session();
                sessions.beginRow()
                    .append(s.sessionId())
                    .append(s.project())
                    .append(s.startedAt())
                    .append(s.endedAt())
                    .append(s.endReason())
                    .append(s.branch())
                    .append(s.firstSeq())
                    .append(s.lastSeq())
                    .append(s.promptCount())
                    .append(s.toolCount())
                    .endRow();
                for (Turn t : a.turns()) {
                    turns.beginRow()
                        .append(t.turnId())
                        .append(t.sessionId())
                        .append(t.project())
                        .append(t.promptEventId())
                        .append(t.promptText())
                        .append(t.replyEventId())
                        .append(t.replyText())
                        .append(t.replySource())
                        .append(t.promptTs())
                        .append(t.replyTs())
                        .endRow();
                }
                for (Observation o : a.observations()) {
                    observations.beginRow()
                        .append(o.observationId())
                        .append(o.sessionId())
                        .append(o.project())
                        .append(o.tool())
                        .append(GraduationJson.MAPPER.writeValueAsString(o.files()))
                        .append(o.command())
                        .append(o.failed())
                        .append(o.errorText())
                        .append(o.durationMs())
                        .append(o.ts())
                        .append(o.inputText())
                        .append(o.outputText())
                        .endRow();
                }
            }
        }
    }

}
