package dev.codememory.writers.summary;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.summary.SessionSummary;
import dev.codememory.config.summary.SummaryOutcome;
import dev.codememory.writers.graduate.Edges;
import dev.codememory.writers.graduate.GraduationJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes session summaries. A summary is composed from memories already verified, so it is stored verified: its
 * evidence spans are copies of the first span of each memory it cites (in line order), and a {@code summarizes}
 * edge links it to each. A session's earlier summary (the session has grown since) is superseded by the new one,
 * never deleted. Every session handled gets its stage mark, with or without a summary. Insert-if-absent throughout,
 * so a chunk written twice changes nothing; a summary the user forgot is not written again.
 */
public class DuckDbSummaryWriter implements ItemWriter<SummaryOutcome> {

    public static final String STAGE = "summary";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbSummaryWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends SummaryOutcome> chunk) {
        try (DuckDBConnection c = connections.get()) {
            c.setAutoCommit(false);
            try {
                for (SummaryOutcome outcome : chunk) {
                    if (outcome.summary() != null) {
                        write(c, outcome.summary());
                    }
                    mark(c, outcome);
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write " + chunk.size() + " session summaries: " + e.getMessage(), e);
        }
    }

    private static void write(Connection c, SessionSummary s) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     task_json, quotes_json, canonical_key, stage, status, created_at)
                SELECT ?1, ?1, 'summary', ?2, ?3, ?4, ?5, ?6, NULL, ?7::JSON, ?8, 'verified', 'active',
                       now() AT TIME ZONE 'UTC'
                WHERE NOT EXISTS (SELECT 1 FROM entries WHERE entry_id = ?1)
                  AND NOT EXISTS (SELECT 1 FROM forgotten WHERE kind = 'entry' AND key = ?1)""")) {
            ps.setString(1, s.entryId());
            ps.setString(2, s.project());
            ps.setString(3, s.sessionId());
            ps.setObject(4, s.ts());
            ps.setString(5, s.title());
            ps.setString(6, s.body());
            ps.setString(7, GraduationJson.quotes(s.quotes()));
            ps.setString(8, s.canonicalKey());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end, confidence,
                                            method, quote_hash)
                SELECT ?, ?, event_id, field, span_start, span_end, confidence, method, quote_hash
                FROM evidence_spans WHERE entry_id = ? AND quote_index = 0
                ON CONFLICT DO NOTHING""")) {
            for (int i = 0; i < s.summarizes().size(); i++) {
                ps.setString(1, s.entryId());
                ps.setInt(2, i);
                ps.setString(3, s.summarizes().get(i));
                ps.executeUpdate();
            }
        }
        for (String memory : s.summarizes()) {
            Edges.insert(c, "entry", s.entryId(), "summarizes", "entry", memory, null);
        }
        try (PreparedStatement older = c.prepareStatement("""
                SELECT entry_id FROM entries WHERE entry_type = 'summary' AND session_id = ? AND entry_id <> ?
                  AND status = 'active'""");
                PreparedStatement supersede = c.prepareStatement("""
                        UPDATE entries SET status = 'superseded', superseded_by = ? WHERE entry_id = ?""")) {
            older.setString(1, s.sessionId());
            older.setString(2, s.entryId());
            var ids = new java.util.ArrayList<String>();
            try (var rs = older.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            for (String id : ids) {
                supersede.setString(1, s.entryId());
                supersede.setString(2, id);
                supersede.executeUpdate();
                Edges.insert(c, "entry", s.entryId(), "supersedes", "entry", id, null);
            }
        }
    }

    private static void mark(Connection c, SummaryOutcome outcome) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO stage_marks (subject_id, stage, done_at) VALUES (?, ?, now() AT TIME ZONE 'UTC')
                ON CONFLICT DO NOTHING""")) {
            ps.setString(1, "summary|" + outcome.sessionId() + "|" + outcome.lastSeq());
            ps.setString(2, STAGE);
            ps.executeUpdate();
        }
    }
}
