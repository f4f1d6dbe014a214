package dev.codememory.writers.rules;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Keeps graduated rows in step with the rules that derive them. Graduation records the
 * version of its rules in {@code derivations}; when a run finds another version there (or
 * none, on a home graduated before versions were recorded), it clears every derived row
 * in one transaction and records the new version, and the stages that follow rebuild
 * everything from the events, which are never touched.
 *
 * <p>
 * Cleared: sessions, turns and observations (reassembled), candidates and their rejects,
 * entries and their evidence spans, tasks, conditions and artifacts with their aliases
 * and events, every edge, the stage marks and the continuity scores. Kept: events,
 * citations, injections, the vector outbox and the run history. Memory ids derive from
 * kind, project and canonical key, so a memory the new rules still make gets its old id
 * back — and with it its citation (a {@code [mem:…]} quoted yesterday still resolves) and
 * its vector (the outbox still lists it as done). A memory they no longer make stays
 * gone; the next vector queue finds it missing and removes its vector.
 */
public class DuckDbDerivationWriter {

    public static final String COMPONENT = "graduation";

    private static final List<String> CLEARED = List.of("DELETE FROM sessions", "DELETE FROM turns",
            "DELETE FROM observations", "DELETE FROM candidates", "DELETE FROM graduation_rejects",
            "DELETE FROM evidence_spans", "DELETE FROM entries", "DELETE FROM task_events", "DELETE FROM entities",
            "DELETE FROM entity_aliases", "DELETE FROM edges", "DELETE FROM stage_marks",
            "DELETE FROM session_continuity");

    private final Supplier<DuckDBConnection> connections;

    public DuckDbDerivationWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /**
     * Clears the derived rows when they were made by other rules than {@code version},
     * and records it.
     * @return the number of rows cleared; 0 when the rows are already of this version or
     * there are none
     */
    public int resetUnless(String version) {
        return Transactions.inTransaction(connections, () -> "bring graduated rows to rules " + version, c -> {
            String stored = stored(c);
            if (version.equals(stored)) {
                return 0; // nothing written: the commit ends a read
            }
            int cleared = 0;
            try (Statement s = c.createStatement()) {
                for (String sql : CLEARED) {
                    cleared += s.executeUpdate(sql);
                }
            }
            Sql.update(c, """
                    INSERT INTO derivations (component, version, applied_at) VALUES (?, ?, now() AT TIME ZONE 'UTC')
                    ON CONFLICT (component) DO UPDATE SET version = excluded.version,
                        applied_at = excluded.applied_at""", COMPONENT, version);
            return cleared;
        });
    }

    private static String stored(Connection c) throws SQLException {
        return Sql.first(c, "SELECT version FROM derivations WHERE component = ?", rs -> rs.getString(1), COMPONENT)
            .orElse(null);
    }

}
