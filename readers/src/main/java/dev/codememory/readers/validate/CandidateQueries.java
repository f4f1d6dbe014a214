package dev.codememory.readers.validate;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.readers.graduation.EntryQueries;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;

/**
 * The read side of the validate stage ({@code validateCandidatesStep}): the candidates it
 * has not decided on.
 */
public final class CandidateQueries {

    /**
     * Candidates validation has not decided on: not an entry, not linked as a duplicate,
     * not rejected.
     */
    public static final String CANDIDATES_TO_VALIDATE = """
            SELECT k.candidate_id, k.ts FROM candidates k
            WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.candidate_id = k.candidate_id)
              AND NOT EXISTS (SELECT 1 FROM edges d WHERE d.src_id = k.candidate_id AND d.rel_type = 'duplicate_of')
              AND NOT EXISTS (SELECT 1 FROM graduation_rejects r WHERE r.subject_id = k.candidate_id
                              AND r.stage = 'validate')
            ORDER BY k.ts, k.candidate_id""";

    private CandidateQueries() {
    }

    /** The candidates whose ids are in the reader's key table, in its order. */
    public static List<Candidate> candidates(Connection c) throws SQLException {
        return Sql.list(c,
                """
                        SELECT k.candidate_id, k.kind, k.session_id, k.project, k.ts, k.title, k.body, k.task_json::VARCHAR,
                               k.quotes_json::VARCHAR, k.extractor
                        FROM candidates k JOIN %s p ON p.key = k.candidate_id WHERE %s ORDER BY p.ord"""
                    .formatted(PendingItemReader.KEYS_TABLE, PendingItemReader.withinPage("k.ts")),
                rs -> new Candidate(rs.getString(1), CandidateKind.valueOf(rs.getString(2).toUpperCase(Locale.ROOT)),
                        rs.getString(3), rs.getString(4), rs.getObject(5, LocalDateTime.class), rs.getString(6),
                        rs.getString(7), EntryQueries.task(rs.getString(8)), EntryQueries.quotes(rs.getString(9)),
                        rs.getString(10)));
    }

}
