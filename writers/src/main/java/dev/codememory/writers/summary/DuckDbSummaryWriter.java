package dev.codememory.writers.summary;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.summary.SessionSummary;
import dev.codememory.config.summary.SummaryOutcome;
import dev.codememory.writers.graduation.Edges;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes session summaries. A summary is composed from memories already verified, so it
 * is stored verified: its evidence spans are copies of the first span of each memory it
 * cites (in line order), and a {@code summarizes} edge links it to each. A session's
 * earlier summary (the session has grown since) is superseded by the new one, never
 * deleted. Every session handled gets its stage mark, with or without a summary.
 * Insert-if-absent throughout, so a chunk written twice changes nothing; a summary the
 * user forgot is not written again.
 */
public class DuckDbSummaryWriter implements ItemWriter<SummaryOutcome> {

    public static final String STAGE = "summary";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbSummaryWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends SummaryOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " session summaries", c -> {
            stage(c, chunk);
            apply(c);
            return null;
        });
    }

    /**
     * The chunk into temporary tables: summaries, the memories each cites (in line
     * order), and stage marks.
     */
    private static void stage(DuckDBConnection c, Chunk<? extends SummaryOutcome> chunk) throws SQLException {
        try (DuckDBAppender summaries = Staging.table(c, "stage_summaries",
                "entry_id VARCHAR, project VARCHAR,"
                        + " session_id VARCHAR, ts TIMESTAMP, title VARCHAR, body VARCHAR, quotes_json VARCHAR,"
                        + " canonical_key VARCHAR");
                DuckDBAppender cited = Staging.table(c, "stage_summarized",
                        "entry_id VARCHAR, quote_index INTEGER," + " memory_id VARCHAR, edge_id VARCHAR");
                DuckDBAppender marks = Staging.table(c, "stage_summary_marks", "subject_id VARCHAR")) {
            for (SummaryOutcome outcome : chunk) {
                SessionSummary s = outcome.summary();
                if (s != null) {
                    summaries.beginRow()
                        .append(s.entryId())
                        .append(s.project())
                        .append(s.sessionId())
                        .append(s.ts())
                        .append(s.title())
                        .append(s.body())
                        .append(GraduationJson.quotes(s.quotes()))
                        .append(s.canonicalKey())
                        .endRow();
                    for (int i = 0; i < s.summarizes().size(); i++) {
                        String memory = s.summarizes().get(i);
                        cited.beginRow()
                            .append(s.entryId())
                            .append(i)
                            .append(memory)
                            .append(Edges.edgeId(s.entryId(), "summarizes", memory))
                            .endRow();
                    }
                }
                marks.beginRow().append("summary|" + outcome.sessionId() + "|" + outcome.lastSeq()).endRow();
            }
        }
    }

    private static void apply(DuckDBConnection c) throws SQLException {
        Staging.execute(c, """
                INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                     task_json, quotes_json, canonical_key, stage, status, created_at)
                SELECT DISTINCT ON (entry_id) entry_id, entry_id, 'summary', project, session_id, ts, title, body, NULL,
                       quotes_json::JSON, canonical_key, 'verified', 'active', now() AT TIME ZONE 'UTC'
                FROM temp.main.stage_summaries s
                WHERE %s
                  AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'entry' AND f.key = s.entry_id)"""
            .formatted(Staging.notStored("s.entry_id", "entries", "entry_id", "", "stage_summaries")));
        Staging.execute(c,
                """
                        INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end, confidence,
                                                    method, quote_hash)
                        SELECT DISTINCT ON (m.entry_id, m.quote_index) m.entry_id, m.quote_index, x.event_id, x.field,
                               x.span_start, x.span_end, x.confidence, x.method, x.quote_hash
                        FROM temp.main.stage_summarized m JOIN evidence_spans x ON x.entry_id = m.memory_id AND x.quote_index = 0
                        ON CONFLICT DO NOTHING""");
        // a session's earlier summaries, superseded by the new one: read before the
        // update that changes them
        Staging.execute(c, """
                CREATE OR REPLACE TEMP TABLE stage_superseded AS
                SELECT DISTINCT e.entry_id AS old_id, s.entry_id AS new_id FROM entries e
                JOIN temp.main.stage_summaries s ON e.session_id = s.session_id
                WHERE e.entry_type = 'summary' AND e.entry_id <> s.entry_id AND e.status = 'active'""");
        try (DuckDBAppender edges = Staging.table(c, "stage_summary_edges",
                "edge_id VARCHAR, src_id VARCHAR," + " rel_type VARCHAR, dst_id VARCHAR");
                Statement st = c.createStatement();
                ResultSet cited = st
                    .executeQuery("SELECT entry_id, memory_id, edge_id FROM temp.main.stage_summarized")) {
            while (cited.next()) {
                edges.beginRow()
                    .append(cited.getString(3))
                    .append(cited.getString(1))
                    .append("summarizes")
                    .append(cited.getString(2))
                    .endRow();
            }
            try (ResultSet superseded = st.executeQuery("SELECT old_id, new_id FROM temp.main.stage_superseded")) {
                while (superseded.next()) {
                    edges.beginRow()
                        .append(Edges.edgeId(superseded.getString(2), "supersedes", superseded.getString(1)))
                        .append(superseded.getString(2))
                        .append("supersedes")
                        .append(superseded.getString(1))
                        .endRow();
                }
            }
        }
        Staging.execute(c, """
                UPDATE entries SET status = 'superseded', superseded_by = o.new_id
                FROM temp.main.stage_superseded o WHERE entries.entry_id = o.old_id""");
        Staging.execute(c, """
                INSERT INTO edges (edge_id, src_type, src_id, rel_type, dst_type, dst_id, meta_json, created_at)
                SELECT DISTINCT ON (edge_id) edge_id, 'entry', src_id, rel_type, 'entry', dst_id, NULL,
                       now() AT TIME ZONE 'UTC'
                FROM temp.main.stage_summary_edges ON CONFLICT (edge_id) DO NOTHING""");
        Staging.execute(c, """
                INSERT INTO stage_marks (subject_id, stage, done_at)
                SELECT DISTINCT subject_id, '%s', now() AT TIME ZONE 'UTC' FROM temp.main.stage_summary_marks
                ON CONFLICT DO NOTHING""".formatted(STAGE));
    }

}
