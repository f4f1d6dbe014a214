package dev.codememory.writers.distill;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.distill.DistillOutcome;
import dev.codememory.config.distill.DistilledMemory;
import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Stores the memories the distiller proved, verified, with the spans the aligner found
 * for their quotes (the citation step that follows gives them their citations, the vector
 * step their vectors), and marks each session handled. Insert-if-absent: a chunk written
 * twice changes nothing, and a memory the user forgot is not written again.
 */
public class DuckDbDistilledWriter implements ItemWriter<DistillOutcome> {

    public static final String STAGE = "distill";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbDistilledWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends DistillOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write the distilled memories of " + chunk.size() + " sessions",
                c -> {
                    try (DuckDBAppender entries = Staging.table(c, "stage_distilled",
                            "entry_id VARCHAR, entry_type VARCHAR, project VARCHAR, session_id VARCHAR, ts TIMESTAMP,"
                                    + " title VARCHAR, body VARCHAR, quotes_json VARCHAR, canonical_key VARCHAR");
                            DuckDBAppender spans = Staging.table(c, "stage_distilled_spans",
                                    "entry_id VARCHAR, quote_index INTEGER, event_id VARCHAR, field VARCHAR,"
                                            + " span_start INTEGER, span_end INTEGER, confidence DOUBLE,"
                                            + " method VARCHAR, quote_hash VARCHAR");
                            DuckDBAppender marks = Staging.table(c, "stage_distilled_marks", "subject_id VARCHAR")) {
                        for (DistillOutcome outcome : chunk) {
                            for (DistilledMemory m : outcome.memories()) {
                                entries.beginRow()
                                    .append(m.entryId())
                                    .append(m.entryType())
                                    .append(m.project())
                                    .append(m.sessionId())
                                    .append(m.ts())
                                    .append(m.title())
                                    .append(m.body())
                                    .append(GraduationJson.quotes(m.quotes()))
                                    .append(m.canonicalKey())
                                    .endRow();
                                for (EvidenceSpan s : m.spans()) {
                                    spans.beginRow()
                                        .append(s.entryId())
                                        .append(s.quoteIndex())
                                        .append(s.eventId())
                                        .append(s.field())
                                        .append(s.start())
                                        .append(s.end())
                                        .append(s.confidence())
                                        .append(s.method())
                                        .append(s.quoteHash())
                                        .endRow();
                                }
                            }
                            marks.beginRow()
                                .append("distill|" + outcome.sessionId() + "|" + outcome.version())
                                .endRow();
                        }
                    }
                    Staging.execute(c,
                            """
                                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts,
                                                         title, body, task_json, quotes_json, canonical_key, stage, status,
                                                         created_at)
                                    SELECT DISTINCT ON (entry_id) entry_id, entry_id, entry_type, project, session_id, ts,
                                           title, body, NULL, quotes_json::JSON, canonical_key, 'verified', 'active',
                                           now() AT TIME ZONE 'UTC'
                                    FROM temp.main.stage_distilled s
                                    WHERE %s
                                      AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'entry' AND f.key = s.entry_id)"""
                                .formatted(
                                        Staging.notStored("s.entry_id", "entries", "entry_id", "", "stage_distilled")));
                    Staging.execute(c, """
                            INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end,
                                                        confidence, method, quote_hash)
                            SELECT DISTINCT ON (entry_id, quote_index) * FROM temp.main.stage_distilled_spans s
                            WHERE EXISTS (SELECT 1 FROM entries e WHERE e.entry_id = s.entry_id)
                            ON CONFLICT DO NOTHING""");
                    Staging.execute(c, """
                            INSERT INTO stage_marks (subject_id, stage, done_at)
                            SELECT DISTINCT subject_id, '%s', now() AT TIME ZONE 'UTC'
                            FROM temp.main.stage_distilled_marks ON CONFLICT DO NOTHING""".formatted(STAGE));
                    return null;
                });
    }

}
