package dev.codememory.writers.align;

import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Evidence spans staged for one insert into {@code evidence_spans}: a temporary table of
 * its columns, in its order, and one appended row per span.
 */
public final class StagedSpans {

    private StagedSpans() {
    }

    /** A temporary table {@code name} with the columns of {@code evidence_spans}. */
    public static DuckDBAppender table(DuckDBConnection c, String name) throws SQLException {
        return Staging.table(c, name, "entry_id VARCHAR, quote_index INTEGER, event_id VARCHAR, field VARCHAR,"
                + " span_start INTEGER, span_end INTEGER, confidence DOUBLE, method VARCHAR, quote_hash VARCHAR");
    }

    public static void append(DuckDBAppender spans, EvidenceSpan s) throws SQLException {
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
