package dev.codememory.writers.graduate;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.graduate.AlignmentOutcome;
import dev.codememory.config.graduate.EvidenceSpan;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes alignment outcomes: the spans found (insert-if-absent), then the entry's stage — {@code verified} when
 * every quote aligned, else {@code unverified} with the reason kept in {@code graduation_rejects}.
 */
public class DuckDbEvidenceWriter implements ItemWriter<AlignmentOutcome> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbEvidenceWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends AlignmentOutcome> chunk) {
        try (Connection c = connections.get()) {
            c.setAutoCommit(false);
            try (PreparedStatement span = c.prepareStatement("""
                    INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end,
                                                confidence, method, quote_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""");
                    PreparedStatement stage = c.prepareStatement(
                            "UPDATE entries SET stage = ? WHERE entry_id = ? AND stage = 'candidate'")) {
                for (AlignmentOutcome outcome : chunk) {
                    for (EvidenceSpan s : outcome.spans()) {
                        span.setString(1, s.entryId());
                        span.setInt(2, s.quoteIndex());
                        span.setString(3, s.eventId());
                        span.setString(4, s.field());
                        span.setInt(5, s.start());
                        span.setInt(6, s.end());
                        span.setDouble(7, s.confidence());
                        span.setString(8, s.method());
                        span.setString(9, s.quoteHash());
                        span.executeUpdate();
                    }
                    if (!outcome.verified()) {
                        Rejects.insert(c, outcome.entryId(), "align", outcome.failure(), null);
                    }
                    stage.setString(1, outcome.verified() ? "verified" : "unverified");
                    stage.setString(2, outcome.entryId());
                    stage.executeUpdate();
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot write evidence of " + chunk.size() + " entries: " + e.getMessage(), e);
        }
    }
}
