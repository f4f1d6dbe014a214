package dev.codememory.writers.distill;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.distill.DistillOutcome;
import dev.codememory.config.distill.DistilledMemory;
import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.config.graduate.Quote;
import dev.codememory.writers.align.StagedSpans;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;
import tools.jackson.core.type.TypeReference;

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
                            DuckDBAppender spans = StagedSpans.table(c, "stage_distilled_spans");
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
                                    StagedSpans.append(spans, s);
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
                    for (DistillOutcome outcome : chunk) {
                        if (outcome.paragraph() != null) {
                            addParagraph(c, outcome.sessionId(), outcome.paragraph());
                        }
                    }
                    Staging.execute(c, """
                            INSERT INTO stage_marks (subject_id, stage, done_at)
                            SELECT DISTINCT subject_id, '%s', now() AT TIME ZONE 'UTC'
                            FROM temp.main.stage_distilled_marks ON CONFLICT DO NOTHING""".formatted(STAGE));
                    return null;
                });
    }

    /**
     * The session's active summary gains the line of proven summary sentences, its quotes
     * and their spans after the summary's own; a summary that has the line already, or a
     * session without a summary, is left as it is.
     */
    private static void addParagraph(DuckDBConnection c, String sessionId, DistillOutcome.Paragraph paragraph)
            throws SQLException {
        record Summary(String entryId, String body, List<Quote> quotes) {
        }
        Optional<Summary> found = Sql.first(c, """
                SELECT entry_id, body, quotes_json::VARCHAR FROM entries
                WHERE session_id = ? AND entry_type = 'summary' AND status = 'active' AND stage = 'verified'
                ORDER BY created_at DESC, entry_id LIMIT 1""", rs -> new Summary(rs.getString(1), rs.getString(2),
                new ArrayList<>(GraduationJson.MAPPER.readValue(rs.getString(3), new TypeReference<List<Quote>>() {
                }))), sessionId);
        if (found.isEmpty() || found.get().body().contains(DistillOutcome.Paragraph.LABEL)) {
            return;
        }
        String entryId = found.get().entryId();
        List<Quote> quotes = found.get().quotes();
        int first = quotes.size();
        quotes.addAll(paragraph.quotes());
        Sql.update(c, "UPDATE entries SET body = ?, quotes_json = ?::JSON WHERE entry_id = ?",
                found.get().body() + "\n" + paragraph.line(), GraduationJson.quotes(quotes), entryId);
        for (int i = 0; i < paragraph.spans().size(); i++) {
            EvidenceSpan span = paragraph.spans().get(i);
            Sql.update(c, """
                    INSERT INTO evidence_spans (entry_id, quote_index, event_id, field, span_start, span_end,
                                                confidence, method, quote_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING""", entryId, first + i, span.eventId(),
                    span.field(), span.start(), span.end(), span.confidence(), span.method(), span.quoteHash());
        }
    }

}
