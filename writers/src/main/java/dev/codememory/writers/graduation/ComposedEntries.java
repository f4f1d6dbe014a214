package dev.codememory.writers.graduation;

import dev.codememory.config.summary.ComposedMemory;
import dev.codememory.writers.staging.Staging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The statements that store memories composed from other verified memories (summaries,
 * topics) within a writer's transaction. Such a memory is stored verified: its evidence
 * spans are copies of the first span of each memory it cites (in line order), and a
 * {@code summarizes} edge links it to each. An earlier one it replaces is superseded,
 * never deleted. Insert-if-absent throughout, so a chunk written twice changes nothing; a
 * memory the user forgot is not written again.
 *
 * <p>
 * A writer stages its memories ({@link #stage}) under a name, lists in the temporary
 * table {@code <name>_replaced (old_id VARCHAR, new_id VARCHAR)} the active memories they
 * replace, then calls {@link #store}.
 */
public final class ComposedEntries {

    private ComposedEntries() {
    }

    /**
     * Opens the staging tables {@code <name>_entries} and {@code <name>_cited}, and
     * appends each memory and the memories it cites.
     */
    public static void stage(DuckDBConnection c, String name, Iterable<? extends ComposedMemory> memories)
            throws SQLException {
        try (DuckDBAppender entries = Staging.table(c, name + "_entries",
                "entry_id VARCHAR, project VARCHAR, session_id VARCHAR, ts TIMESTAMP, title VARCHAR, body VARCHAR,"
                        + " quotes_json VARCHAR, canonical_key VARCHAR");
                DuckDBAppender cited = Staging.table(c, name + "_cited",
                        "entry_id VARCHAR, quote_index INTEGER, memory_id VARCHAR, edge_id VARCHAR")) {
            for (ComposedMemory m : memories) {
                entries.beginRow()
                    .append(m.entryId())
                    .append(m.project())
                    .append(m.sessionId())
                    .append(m.ts())
                    .append(m.title())
                    .append(m.body())
                    .append(GraduationJson.quotes(m.quotes()))
                    .append(m.canonicalKey())
                    .endRow();
                for (int i = 0; i < m.summarizes().size(); i++) {
                    String memory = m.summarizes().get(i);
                    cited.beginRow()
                        .append(m.entryId())
                        .append(i)
                        .append(memory)
                        .append(Edges.edgeId(m.entryId(), "summarizes", memory))
                        .endRow();
                }
            }
        }
    }

    /**
     * Stores the staged memories as entries of {@code type} with their spans and edges,
     * and supersedes the memories listed in {@code <name>_replaced}: each by its
     * {@code new_id}, with a {@code supersedes} edge, or by none when that is null.
     */
    public static void store(DuckDBConnection c, String name, String type) throws SQLException {
        Staging.execute(c, """
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     task_json, quotes_json, canonical_key, stage, status, created_at)
                SELECT DISTINCT ON (entry_id) entry_id, entry_id, '%s', project, session_id, ts, title, body, NULL,
                       quotes_json::JSON, canonical_key, 'verified', 'active', now() AT TIME ZONE 'UTC'
                FROM temp.main.%s_entries s
                WHERE %s
                  AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'entry' AND f.key = s.entry_id)"""
            .formatted(type, name, Staging.notStored("s.entry_id", "entries", "entry_id", "", name + "_entries")));
        Staging.execute(c, """
                INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end, confidence,
                                            method, quote_hash)
                SELECT DISTINCT ON (m.entry_id, m.quote_index) m.entry_id, m.quote_index, x.event_id, x.field,
                       x.span_start, x.span_end, x.confidence, x.method, x.quote_hash
                FROM temp.main.%s_cited m JOIN evidence_spans x ON x.entry_id = m.memory_id AND x.quote_index = 0
                ON CONFLICT DO NOTHING""".formatted(name));
        try (DuckDBAppender edges = Staging.table(c, name + "_edges",
                "edge_id VARCHAR, src_id VARCHAR, rel_type VARCHAR, dst_id VARCHAR");
                Statement st = c.createStatement()) {
            try (ResultSet cited = st
                .executeQuery("SELECT entry_id, memory_id, edge_id FROM temp.main." + name + "_cited")) {
                while (cited.next()) {
                    edges.beginRow()
                        .append(cited.getString(3))
                        .append(cited.getString(1))
                        .append("summarizes")
                        .append(cited.getString(2))
                        .endRow();
                }
            }
            try (ResultSet replaced = st
                .executeQuery("SELECT old_id, new_id FROM temp.main." + name + "_replaced WHERE new_id IS NOT NULL")) {
                while (replaced.next()) {
                    edges.beginRow()
                        .append(Edges.edgeId(replaced.getString(2), "supersedes", replaced.getString(1)))
                        .append(replaced.getString(2))
                        .append("supersedes")
                        .append(replaced.getString(1))
                        .endRow();
                }
            }
        }
        Staging.execute(c, """
                UPDATE entries SET status = 'superseded', superseded_by = o.new_id
                FROM temp.main.%s_replaced o WHERE entries.entry_id = o.old_id AND entries.status = 'active'"""
            .formatted(name));
        Staging.execute(c, """
                INSERT INTO edges (edge_id, src_type, src_id, rel_type, dst_type, dst_id, meta_json, created_at)
                SELECT DISTINCT ON (edge_id) edge_id, 'entry', src_id, rel_type, 'entry', dst_id, NULL,
                       now() AT TIME ZONE 'UTC'
                FROM temp.main.%s_edges ON CONFLICT (edge_id) DO NOTHING""".formatted(name));
    }

    /** Stage marks for the subjects in temporary table {@code marks (subject_id)}. */
    public static void mark(DuckDBConnection c, String marks, String stage) throws SQLException {
        Staging.execute(c, """
                INSERT INTO stage_marks (subject_id, stage, done_at)
                SELECT DISTINCT subject_id, '%s', now() AT TIME ZONE 'UTC' FROM temp.main.%s
                ON CONFLICT DO NOTHING""".formatted(stage, marks));
    }

}
