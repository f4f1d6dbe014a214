package dev.codememory.writers.project;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.writers.rules.DuckDbDerivationWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Joins the events a home recorded under a git worktree's own folder to the project of
 * the repository the worktree belongs to, as {@link ProjectResolver} names projects now
 * (a home made before worktrees were joined keeps each worktree as a project of its own).
 * A stored project that is, on this machine, a linked worktree of another repository is
 * moved there; then the derivation version is cleared, so that the rules step rebuilds
 * every graduated row from the events, and every memory of the worktree gets the
 * repository's project (memory ids derive from the project, so they change, and the
 * vector queue replaces their vectors). A worktree no longer on disk cannot be recognised
 * and stays as it is; so does everything else. Events are never lost: only their
 * {@code project} column changes, and a second run finds nothing to move.
 */
public class DuckDbWorktreeWriter {

    private final Supplier<DuckDBConnection> connections;

    public DuckDbWorktreeWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /**
     * Moves the events of every stored worktree project to its repository's project.
     * @return the projects moved, each to the project it joined; empty when none was
     */
    public Map<String, String> joinWorktrees(ProjectResolver projects) {
        return Transactions.inTransaction(connections, () -> "join worktrees to their repository's project", c -> {
            Map<String, String> moves = new LinkedHashMap<>();
            for (String stored : Sql.list(c, "SELECT DISTINCT project FROM events ORDER BY project",
                    rs -> rs.getString(1))) {
                // only a worktree's own top level moves: a folder the resolver now reads
                // as inside another repository (a nested one deleted since, a folder a
                // repository was made around) stays as it is
                if (stored.startsWith("/") && projects.worktreeOf(stored).equals(stored)) {
                    String now = projects.projectOf(stored);
                    if (!now.equals(stored)) {
                        moves.put(stored, now);
                    }
                }
            }
            if (moves.isEmpty()) {
                return moves; // nothing written: the commit ends a read
            }
            Sql.batch(c, "UPDATE events SET project = ? WHERE project = ?", moves.entrySet(),
                    move -> new Object[] { move.getValue(), move.getKey() });
            Sql.update(c, "DELETE FROM derivations WHERE component = ?", DuckDbDerivationWriter.COMPONENT);
            return moves;
        });
    }

}
