package dev.codememory.writers.graduate;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.ExtractedSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes L1 candidates (insert-if-absent on their deterministic id) and moves each session's extraction mark, in
 * one transaction per chunk.
 */
public class DuckDbCandidateWriter implements ItemWriter<ExtractedSession> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbCandidateWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends ExtractedSession> chunk) {
        try (Connection c = connections.get()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("""
                    INSERT INTO candidates (candidate_id, kind, session_id, project, ts, title, body, task_json,
                                            quotes_json, extractor, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?::JSON, ?::JSON, ?, now() AT TIME ZONE 'UTC')
                    ON CONFLICT (candidate_id) DO NOTHING""");
                    PreparedStatement mark = c.prepareStatement(
                            "UPDATE sessions SET extracted_seq = ? WHERE session_id = ? AND extracted_seq < ?")) {
                for (ExtractedSession s : chunk) {
                    for (Candidate k : s.candidates()) {
                        insert.setString(1, k.candidateId());
                        insert.setString(2, k.kind().key());
                        insert.setString(3, k.sessionId());
                        insert.setString(4, k.project());
                        insert.setObject(5, k.ts());
                        insert.setString(6, k.title());
                        insert.setString(7, k.body());
                        insert.setString(8, GraduationJson.task(k.task()));
                        insert.setString(9, GraduationJson.quotes(k.quotes()));
                        insert.setString(10, k.extractor());
                        insert.executeUpdate();
                    }
                    mark.setLong(1, s.lastSeq());
                    mark.setString(2, s.sessionId());
                    mark.setLong(3, s.lastSeq());
                    mark.executeUpdate();
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write candidates of " + chunk.size() + " sessions: "
                    + e.getMessage(), e);
        }
    }
}
