package dev.codememory.writers.extract;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.ExtractedSession;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes L1 candidates (insert-if-absent on their deterministic id; never one the user
 * forgot) and moves each session's extraction mark, in one transaction per chunk; rows
 * are staged through the Appender.
 */
public class DuckDbCandidateWriter implements ItemWriter<ExtractedSession> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbCandidateWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends ExtractedSession> chunk) {
        Transactions.inTransaction(connections, () -> "write candidates of " + chunk.size() + " sessions", c -> {
            List<Candidate> all = new ArrayList<>();
            try (DuckDBAppender marks = Staging.table(c, "stage_extracted", "session_id VARCHAR, last_seq BIGINT")) {
                for (ExtractedSession s : chunk) {
                    all.addAll(s.candidates());
                    marks.beginRow().append(s.sessionId()).append(s.lastSeq()).endRow();
                }
            }
            insert(c, all);
            Staging.execute(c, """
                    UPDATE sessions SET extracted_seq = m.last_seq FROM temp.main.stage_extracted m
                    WHERE sessions.session_id = m.session_id AND sessions.extracted_seq < m.last_seq""");
            return null;
        });
    }

    /**
     * Stages the candidates through the Appender and inserts those whose id is neither
     * stored nor forgotten.
     */
    public static void insert(DuckDBConnection c, List<Candidate> all) throws SQLException {
        try (DuckDBAppender candidates = Staging.table(c, "stage_candidates",
                "candidate_id VARCHAR,"
                        + " kind VARCHAR, session_id VARCHAR, project VARCHAR, ts TIMESTAMP, title VARCHAR,"
                        + " body VARCHAR, task_json VARCHAR, quotes_json VARCHAR, extractor VARCHAR")) {
            for (Candidate k : all) {
                candidates.beginRow()
                    .append(k.candidateId())
                    .append(k.kind().key())
                    .append(k.sessionId())
                    .append(k.project())
                    .append(k.ts())
                    .append(k.title())
                    .append(k.body())
                    .append(GraduationJson.task(k.task()))
                    .append(GraduationJson.quotes(k.quotes()))
                    .append(k.extractor())
                    .endRow();
            }
        }
        Staging.execute(c, """
                INSERT INTO candidates (candidate_id, kind, session_id, project, ts, title, body, task_json,
                                        quotes_json, extractor, created_at)
                SELECT s.candidate_id, s.kind, s.session_id, s.project, s.ts, s.title, s.body, s.task_json::JSON,
                       s.quotes_json::JSON, s.extractor, now() AT TIME ZONE 'UTC'
                FROM (SELECT DISTINCT ON (candidate_id) * FROM temp.main.stage_candidates) s
                WHERE %s
                  AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'candidate' AND f.key = s.candidate_id)"""
            .formatted(Staging.notStored("s.candidate_id", "candidates", "candidate_id", "", "stage_candidates")));
    }

}
