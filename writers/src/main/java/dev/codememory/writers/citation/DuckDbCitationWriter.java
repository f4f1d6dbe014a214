package dev.codememory.writers.citation;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Transactions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every verified memory that has none its citation, set-based in rounds. In round 0
 * each memory claims the first 6 characters of base64url(sha256(memory_id)) — what
 * {@code processors…query.Citation.of} computes. A memory whose code is already stored
 * for another memory, or is claimed by a memory with a smaller id in the same round,
 * tries again in round n with sha256(memory_id || '#' || n), until every memory has one.
 * Stored citations never change, so a rerun assigns nothing new and a citation quoted
 * once keeps resolving to the same memory.
 */
public class DuckDbCitationWriter {

    /**
     * 36-bit codes: even a million memories need a handful of rounds; this many means
     * something is broken.
     */
    static final int MAX_ROUNDS = 64;

    private static final Logger log = LoggerFactory.getLogger(DuckDbCitationWriter.class);

    private static final String PENDING = """
            SELECT e.entry_id AS memory_id FROM entries e
            WHERE e.stage = 'verified' AND NOT EXISTS (SELECT 1 FROM citations c WHERE c.memory_id = e.entry_id)""";

    private final Supplier<DuckDBConnection> connections;

    private final IntFunction<String> codeSql;

    public DuckDbCitationWriter(Supplier<DuckDBConnection> connections) {
        this(connections, DuckDbCitationWriter::codeSql);
    }

    /**
     * {@code codeSql}: the SQL expression of round n's code over the column
     * {@code memory_id} (a test seam).
     */
    DuckDbCitationWriter(Supplier<DuckDBConnection> connections, IntFunction<String> codeSql) {
        this.connections = connections;
        this.codeSql = codeSql;
    }

    /**
     * The code a memory claims in round n: base64url(sha256(id)) in round 0, of id || '#'
     * || n after.
     */
    static String codeSql(int round) {
        String input = round == 0 ? "memory_id" : "memory_id || '#" + round + "'";
        return "translate(left(to_base64(unhex(sha256(" + input + "))), 6), '+/', '-_')";
    }

    /**
     * Assigns citations to the verified memories that have none, in one transaction;
     * returns how many.
     */
    public int assignMissing() {
        Assigned done = Transactions.inTransaction(connections, () -> "assign citations", c -> {
            int assigned = 0;
            int round = 0;
            while (pending(c) > 0) {
                if (round == MAX_ROUNDS) {
                    throw new DatabaseException("citations: " + pending(c) + " memories still without a free"
                            + " code after " + MAX_ROUNDS + " rounds", null);
                }
                int claimed = claim(c, round);
                log.debug("citation round {}: {} assigned", round, claimed);
                assigned += claimed;
                round++;
            }
            return new Assigned(assigned, round);
        });
        if (done.citations() > 0) {
            log.info("assigned {} citation(s) in {} round(s)", done.citations(), done.rounds());
        }
        return done.citations();
    }

    private record Assigned(int citations, int rounds) {
    }

    private static long pending(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + PENDING + ")")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * One round: each pending memory claims its round-n code; free codes go to the
     * smallest memory id.
     */
    private int claim(Connection c, int round) throws SQLException {
        String sql = """
                INSERT INTO citations (citation, memory_id, created_at)
                WITH pending AS (%s),
                     claims AS (SELECT memory_id, %s AS code FROM pending),
                     ranked AS (SELECT memory_id, code,
                                       row_number() OVER (PARTITION BY code ORDER BY memory_id) AS claim_rank
                                FROM claims)
                SELECT r.code, r.memory_id, now() AT TIME ZONE 'UTC' FROM ranked r
                WHERE r.claim_rank = 1 AND NOT EXISTS (SELECT 1 FROM citations t WHERE t.citation = r.code)"""
            .formatted(PENDING, codeSql.apply(round));
        try (Statement st = c.createStatement()) {
            return st.executeUpdate(sql);
        }
    }

}
