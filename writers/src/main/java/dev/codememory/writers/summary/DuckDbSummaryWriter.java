package dev.codememory.writers.summary;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.summary.SessionSummary;
import dev.codememory.config.summary.SummaryOutcome;
import dev.codememory.writers.graduation.ComposedEntries;
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
 * Writes session summaries ({@link ComposedEntries}: stored verified with copies of the
 * cited memories' spans). A session's earlier summary (the session has grown since) is
 * superseded by the new one, never deleted. Every session handled gets its stage mark,
 * with or without a summary. A chunk written twice changes nothing; a summary the user
 * forgot is not written again.
 */
public class DuckDbSummaryWriter implements ItemWriter<SummaryOutcome> {

    public static final String STAGE = "summary";

    private static final String STAGED = "stage_summary";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbSummaryWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends SummaryOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " session summaries", c -> {
            stage(c, chunk);
            // a session's earlier summaries, superseded by the new one
            Staging.execute(c, """
                    CREATE OR REPLACE TEMP TABLE %1$s_replaced AS
                    SELECT DISTINCT e.entry_id AS old_id, s.entry_id AS new_id FROM entries e
                    JOIN temp.main.%1$s_entries s ON e.session_id = s.session_id
                    WHERE e.entry_type = 'summary' AND e.entry_id <> s.entry_id AND e.status = 'active'"""
                .formatted(STAGED));
            ComposedEntries.store(c, STAGED, "summary");
            ComposedEntries.mark(c, STAGED + "_marks", STAGE);
            return null;
        });
    }

    /**
     * The chunk's summaries and the stage marks of its sessions into temporary tables.
     */
    private static void stage(DuckDBConnection c, Chunk<? extends SummaryOutcome> chunk) throws SQLException {
        List<SessionSummary> summaries = new ArrayList<>();
        try (DuckDBAppender marks = Staging.table(c, STAGED + "_marks", "subject_id VARCHAR")) {
            for (SummaryOutcome outcome : chunk) {
                if (outcome.summary() != null) {
                    summaries.add(outcome.summary());
                }
                marks.beginRow().append("summary|" + outcome.sessionId() + "|" + outcome.lastSeq()).endRow();
            }
        }
        ComposedEntries.stage(c, STAGED, summaries);
    }

}
