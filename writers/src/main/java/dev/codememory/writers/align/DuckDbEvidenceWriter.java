package dev.codememory.writers.align;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.graduate.AlignmentOutcome;
import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.writers.staging.Staging;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes alignment outcomes: the spans found (insert-if-absent), then the entry's stage —
 * {@code verified} when every quote aligned, else {@code unverified} with the reason kept
 * in {@code graduation_rejects}. Staged through the Appender and applied set-based.
 */
public class DuckDbEvidenceWriter implements ItemWriter<AlignmentOutcome> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbEvidenceWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends AlignmentOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write evidence of " + chunk.size() + " entries", c -> {
            try (DuckDBAppender spans = StagedSpans.table(c, "stage_spans");
                    DuckDBAppender outcomes = Staging.table(c, "stage_outcomes",
                            "entry_id VARCHAR," + " stage VARCHAR, failure VARCHAR")) {
                for (AlignmentOutcome outcome : chunk) {
                    for (EvidenceSpan s : outcome.spans()) {
                        StagedSpans.append(spans, s);
                    }
                    outcomes.beginRow()
                        .append(outcome.entryId())
                        .append(outcome.verified() ? "verified" : "unverified")
                        .append(outcome.failure())
                        .endRow();
                }
            }
            Staging.execute(c, """
                    INSERT INTO evidence_spans SELECT DISTINCT ON (entry_id, quote_index) * FROM temp.main.stage_spans s
                    WHERE NOT EXISTS (SELECT 1 FROM evidence_spans x WHERE x.entry_id = s.entry_id
                                      AND x.quote_index = s.quote_index)""");
            Staging.execute(c, """
                    INSERT INTO graduation_rejects (subject_id, stage, reason, detail_json, rejected_at)
                    SELECT DISTINCT ON (entry_id) entry_id, 'align', failure, NULL, now() AT TIME ZONE 'UTC'
                    FROM temp.main.stage_outcomes o WHERE failure IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM graduation_rejects g WHERE g.subject_id = o.entry_id
                                      AND g.stage = 'align')""");
            Staging.execute(c,
                    """
                            UPDATE entries SET stage = o.stage FROM (SELECT DISTINCT ON (entry_id) * FROM temp.main.stage_outcomes) o
                            WHERE entries.entry_id = o.entry_id AND entries.stage = 'candidate'""");
            return null;
        });
    }

}
