package dev.codememory.writers.graduate;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.ValidationOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes validation outcomes. An accepted draft whose canonical key already names an entry of the same type and
 * project is linked to it ({@code duplicate_of} edge from the candidate) instead of being copied; otherwise it
 * becomes an entry at stage {@code candidate}. Rejections are kept with their reason. Everything is
 * insert-if-absent, so a chunk written twice changes nothing.
 */
public class DuckDbEntryWriter implements ItemWriter<ValidationOutcome> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbEntryWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends ValidationOutcome> chunk) {
        try (Connection c = connections.get()) {
            c.setAutoCommit(false);
            try {
                for (ValidationOutcome outcome : chunk) {
                    if (outcome instanceof ValidationOutcome.Accepted accepted) {
                        accept(c, accepted.entry());
                    } else if (outcome instanceof ValidationOutcome.Rejected rejected) {
                        Rejects.insert(c, rejected.candidateId(), "validate", rejected.reason(), null);
                    }
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write " + chunk.size() + " validated candidates: " + e.getMessage(), e);
        }
    }

    private static void accept(Connection c, EntryDraft d) throws SQLException {
        String existing = null;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT entry_id FROM entries WHERE canonical_key = ? AND entry_type = ? AND project = ?
                ORDER BY created_ts, entry_id LIMIT 1""")) {
            ps.setString(1, d.canonicalKey());
            ps.setString(2, d.kind().key());
            ps.setString(3, d.project());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    existing = rs.getString(1);
                }
            }
        }
        if (existing != null && !existing.equals(d.entryId())) {
            Edges.insert(c, "candidate", d.candidateId(), "duplicate_of", "entry", existing, null);
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     task_json, quotes_json, canonical_key, stage, status, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::JSON, ?::JSON, ?, 'candidate', 'active', now() AT TIME ZONE 'UTC')
                ON CONFLICT (entry_id) DO NOTHING""")) {
            ps.setString(1, d.entryId());
            ps.setString(2, d.candidateId());
            ps.setString(3, d.kind().key());
            ps.setString(4, d.project());
            ps.setString(5, d.sessionId());
            ps.setObject(6, d.ts());
            ps.setString(7, d.title());
            ps.setString(8, d.body());
            ps.setString(9, GraduationJson.task(d.task()));
            ps.setString(10, GraduationJson.quotes(d.quotes()));
            ps.setString(11, d.canonicalKey());
            ps.executeUpdate();
        }
    }
}
