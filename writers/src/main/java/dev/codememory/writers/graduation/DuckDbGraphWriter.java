package dev.codememory.writers.graduation;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.graduate.GraphUpdate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes graph updates: task events (insert-if-absent by dedupe key, continuing
 * {@code seq}), entity rows (upsert, with a primary alias per canonical key), edges (sets
 * to replace are cleared, then edges inserted if absent), and the stage mark, all in one
 * transaction per chunk. Writing the same update twice leaves the same rows.
 */
public class DuckDbGraphWriter implements ItemWriter<GraphUpdate> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbGraphWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends GraphUpdate> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " graph updates", c -> {
            for (GraphUpdate u : chunk) {
                write(c, u);
            }
            return null;
        });
    }

    private static void write(Connection c, GraphUpdate u) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO task_events (dedupe_key, seq, event_type, entity_id, payload, ts, source_entry)
                SELECT ?, coalesce((SELECT max(seq) FROM task_events), 0) + 1, ?, ?, ?::JSON, ?, ?
                WHERE NOT EXISTS (SELECT 1 FROM task_events WHERE dedupe_key = ?)""")) {
            for (GraphUpdate.TaskEventRow e : u.events()) {
                ps.setString(1, e.dedupeKey());
                ps.setString(2, e.eventType());
                ps.setString(3, e.entityId());
                ps.setString(4, e.payloadJson());
                ps.setObject(5, e.ts());
                ps.setString(6, e.sourceEntry());
                ps.setString(7, e.dedupeKey());
                ps.executeUpdate();
            }
        }
        try (PreparedStatement entity = c.prepareStatement("""
                INSERT INTO entities (entity_id, entity_type, canonical_key, project, title, status, current_json,
                                      updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?::JSON, now() AT TIME ZONE 'UTC')
                ON CONFLICT (entity_id) DO UPDATE SET title = excluded.title, status = excluded.status,
                    current_json = excluded.current_json, updated_at = excluded.updated_at""");
                PreparedStatement alias = c.prepareStatement("""
                        INSERT INTO entity_aliases (entity_type, canonical_key, entity_id, is_primary)
                        VALUES (?, ?, ?, TRUE) ON CONFLICT DO NOTHING""")) {
            for (GraphUpdate.EntityRow e : u.entities()) {
                entity.setString(1, e.entityId());
                entity.setString(2, e.entityType());
                entity.setString(3, e.canonicalKey());
                entity.setString(4, e.project());
                entity.setString(5, e.title());
                entity.setString(6, e.status());
                entity.setString(7, e.currentJson());
                entity.executeUpdate();
                alias.setString(1, e.entityType());
                alias.setString(2, e.canonicalKey());
                alias.setString(3, e.entityId());
                alias.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM edges WHERE src_id = ? AND rel_type = ?")) {
            for (GraphUpdate.ReplacedEdgeSet set : u.clearEdges()) {
                ps.setString(1, set.srcId());
                ps.setString(2, set.relType());
                ps.executeUpdate();
            }
        }
        for (GraphUpdate.EdgeRow e : u.addEdges()) {
            Edges.insert(c, e.srcType(), e.srcId(), e.relType(), e.dstType(), e.dstId(), e.metaJson());
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE entries SET status = 'superseded', superseded_by = ?
                WHERE entry_id = ? AND status = 'active'""")) {
            for (GraphUpdate.Supersession s : u.supersessions()) {
                ps.setString(1, s.newerId());
                ps.setString(2, s.olderId());
                ps.executeUpdate();
                Edges.insert(c, "entry", s.newerId(), "supersedes", "entry", s.olderId(),
                        "{\"similarity\":" + s.similarity() + "}");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO stage_marks (subject_id, stage, done_at) VALUES (?, ?, now() AT TIME ZONE 'UTC')
                ON CONFLICT DO NOTHING""")) {
            ps.setString(1, u.subjectId());
            ps.setString(2, u.stage());
            ps.executeUpdate();
        }
    }

}
