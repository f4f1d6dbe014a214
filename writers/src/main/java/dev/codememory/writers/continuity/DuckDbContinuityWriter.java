package dev.codememory.writers.continuity;

import dev.codememory.config.db.Transactions;
import dev.codememory.writers.staging.Staging;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Scores how much each session went on with the previous session of its project, into
 * {@code session_continuity}. A session's work items are the files it edited or read
 * (without failing), the tasks its memories speak of, and the active topics that cite its
 * memories; its score is the items both sessions have over the items of the smaller of
 * the two (null when either has none): 1 when one session's work lies wholly in the
 * other's, whatever their sizes (a long session followed by a short one that finishes a
 * piece of it scores high; the share of the long session's items would not). A session is
 * scored once at each extent, against the session that started before it; set-based, one
 * transaction.
 */
public class DuckDbContinuityWriter {

    /** Tools whose file counts as a work item of the session. */
    static final String FILE_TOOLS = "('Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'Read')";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbContinuityWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /**
     * Scores every assembled session not scored at its current extent; the number scored.
     */
    public long scoreMissing() {
        return Transactions.inTransaction(connections, () -> "score session continuity", c -> {
            Staging.execute(c, """
                    CREATE OR REPLACE TEMP TABLE continuity_pairs AS
                    WITH ordered AS (
                      SELECT session_id, last_seq, extracted_seq,
                             lag(session_id) OVER (PARTITION BY project ORDER BY started_at, session_id) AS previous
                      FROM sessions)
                    SELECT o.session_id, o.previous, o.last_seq FROM ordered o
                    WHERE o.previous IS NOT NULL AND o.extracted_seq >= o.last_seq
                      AND NOT EXISTS (SELECT 1 FROM session_continuity s WHERE s.session_id = o.session_id
                                      AND s.last_seq = o.last_seq AND s.previous_session_id = o.previous)""");
            Staging.execute(c, """
                    CREATE OR REPLACE TEMP TABLE continuity_items AS
                    WITH wanted AS (SELECT session_id FROM temp.main.continuity_pairs
                                    UNION SELECT previous FROM temp.main.continuity_pairs)
                    SELECT DISTINCT o.session_id, 'file:' || json_extract_string(o.files, '$[0]') AS item
                    FROM observations o
                    WHERE o.session_id IN (SELECT session_id FROM wanted) AND NOT o.failed AND o.tool IN %s
                      AND json_array_length(o.files) > 0
                    UNION
                    SELECT DISTINCT e.session_id, 'task:' || te.entity_id FROM task_events te
                    JOIN entries e ON e.entry_id = te.source_entry
                    WHERE e.session_id IN (SELECT session_id FROM wanted)
                    UNION
                    SELECT DISTINCT m.session_id, 'topic:' || t.entry_id FROM entries t
                    JOIN edges d ON d.src_id = t.entry_id AND d.rel_type = 'summarizes'
                    JOIN entries m ON m.entry_id = d.dst_id
                    WHERE t.entry_type = 'topic' AND t.status = 'active'
                      AND m.session_id IN (SELECT session_id FROM wanted)""".formatted(FILE_TOOLS));
            Staging.execute(c, """
                    INSERT INTO session_continuity (session_id, previous_session_id, last_seq, previous_items,
                                                    own_items, shared_items, score, scored_at)
                    WITH counted AS (
                      SELECT p.session_id, p.previous, p.last_seq,
                             (SELECT count(*) FROM temp.main.continuity_items a
                              WHERE a.session_id = p.previous) AS previous_items,
                             (SELECT count(*) FROM temp.main.continuity_items a
                              WHERE a.session_id = p.session_id) AS own_items,
                             (SELECT count(*) FROM temp.main.continuity_items a
                              JOIN temp.main.continuity_items b ON b.item = a.item AND b.session_id = p.session_id
                              WHERE a.session_id = p.previous) AS shared_items
                      FROM temp.main.continuity_pairs p)
                    SELECT session_id, previous, last_seq, previous_items, own_items, shared_items,
                           CASE WHEN least(previous_items, own_items) = 0 THEN NULL
                                ELSE shared_items / least(previous_items, own_items) END,
                           now() AT TIME ZONE 'UTC'
                    FROM counted
                    ON CONFLICT (session_id) DO UPDATE SET previous_session_id = excluded.previous_session_id,
                      last_seq = excluded.last_seq, previous_items = excluded.previous_items,
                      own_items = excluded.own_items,
                      shared_items = excluded.shared_items, score = excluded.score, scored_at = excluded.scored_at""");
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM temp.main.continuity_pairs")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

}
