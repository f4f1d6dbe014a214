package dev.codememory.writers.validate;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.writers.graduation.Edges;
import dev.codememory.writers.graduation.GraduationJson;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes validation outcomes. An entry's id derives from its type, project and canonical
 * key, so a draft whose id is already stored (by another candidate) is a duplicate: it is
 * linked to that entry with a {@code duplicate_of} edge from the candidate instead of
 * being copied. Otherwise it becomes an entry at stage {@code candidate} — unless the
 * user forgot that memory: then the candidate is rejected with that reason and nothing
 * comes back. Rejections are kept with their reason. Staged through the Appender and
 * applied set-based, insert-if-absent ({@link Staging#notStored}), so a chunk written
 * twice changes nothing.
 */
public class DuckDbEntryWriter implements ItemWriter<ValidationOutcome> {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbEntryWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends ValidationOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write " + chunk.size() + " validated candidates", c -> {
            stage(c, chunk);
            Staging.execute(c, """
                    INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title,
                                         body, task_json, quotes_json, canonical_key, stage, status, created_at)
                    SELECT d.entry_id, d.candidate_id, d.entry_type, d.project, d.session_id, d.created_ts, d.title,
                           d.body, d.task_json::JSON, d.quotes_json::JSON, d.canonical_key, 'candidate', 'active',
                           now() AT TIME ZONE 'UTC'
                    FROM (SELECT DISTINCT ON (entry_id) * FROM temp.main.stage_drafts ORDER BY entry_id, ord) d
                    WHERE %s
                      AND NOT EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'entry' AND f.key = d.entry_id)"""
                .formatted(Staging.notStored("d.entry_id", "entries", "entry_id", "", "stage_drafts")));
            Staging.execute(c, """
                    INSERT INTO edges (edge_id, src_type, src_id, rel_type, dst_type, dst_id, meta_json, created_at)
                    SELECT DISTINCT %s, 'candidate', d.candidate_id, 'duplicate_of', 'entry', e.entry_id, NULL,
                           now() AT TIME ZONE 'UTC'
                    FROM temp.main.stage_drafts d JOIN entries e ON e.entry_id = d.entry_id
                    WHERE e.candidate_id <> d.candidate_id
                      AND %s""".formatted(edgeIdSql("d.candidate_id", "'duplicate_of'", "e.entry_id"), Staging
                .notStored("d.candidate_id", "edges", "src_id", "rel_type = 'duplicate_of'", "stage_drafts")));
            Staging.execute(c, """
                    INSERT INTO graduation_rejects (subject_id, stage, reason, detail_json, rejected_at)
                    SELECT DISTINCT ON (candidate_id) candidate_id, 'validate', 'its memory was forgotten', NULL,
                           now() AT TIME ZONE 'UTC'
                    FROM temp.main.stage_drafts d
                    WHERE EXISTS (SELECT 1 FROM forgotten f WHERE f.kind = 'entry' AND f.key = d.entry_id)
                      AND %s""".formatted(Staging.notStored("d.candidate_id", "graduation_rejects", "subject_id",
                    "stage = 'validate'", "stage_drafts")));
            Staging.execute(c, """
                    INSERT INTO graduation_rejects (subject_id, stage, reason, detail_json, rejected_at)
                    SELECT DISTINCT ON (candidate_id) candidate_id, 'validate', reason, NULL, now() AT TIME ZONE 'UTC'
                    FROM temp.main.stage_rejects r
                    WHERE %s""".formatted(Staging.notStored("r.candidate_id", "graduation_rejects", "subject_id",
                    "stage = 'validate'", "stage_rejects")));
            return null;
        });
    }

    private static void stage(DuckDBConnection c, Chunk<? extends ValidationOutcome> chunk) throws SQLException {
        try (DuckDBAppender drafts = Staging.table(c, "stage_drafts",
                "ord INTEGER, entry_id VARCHAR,"
                        + " candidate_id VARCHAR, entry_type VARCHAR, project VARCHAR, session_id VARCHAR,"
                        + " created_ts TIMESTAMP, title VARCHAR, body VARCHAR, task_json VARCHAR, quotes_json VARCHAR,"
                        + " canonical_key VARCHAR");
                DuckDBAppender rejects = Staging.table(c, "stage_rejects", "candidate_id VARCHAR, reason VARCHAR")) {
            int ord = 0;
            for (ValidationOutcome outcome : chunk) {
                if (outcome instanceof ValidationOutcome.Accepted accepted) {
                    EntryDraft d = accepted.entry();
                    drafts.beginRow()
                        .append(ord++)
                        .append(d.entryId())
                        .append(d.candidateId())
                        .append(d.kind().key())
                        .append(d.project())
                        .append(d.sessionId())
                        .append(d.ts())
                        .append(d.title())
                        .append(d.body())
                        .append(GraduationJson.task(d.task()))
                        .append(GraduationJson.quotes(d.quotes()))
                        .append(d.canonicalKey())
                        .endRow();
                }
                else if (outcome instanceof ValidationOutcome.Rejected r) {
                    rejects.beginRow().append(r.candidateId()).append(r.reason()).endRow();
                }
            }
        }
    }

    /** SQL for the id {@link Edges#edgeId} computes in Java. */
    private static String edgeIdSql(String src, String rel, String dst) {
        return "'edge_' || substr(sha256(" + src + " || '|' || " + rel + " || '|' || " + dst + "), 1, 32)";
    }

}
