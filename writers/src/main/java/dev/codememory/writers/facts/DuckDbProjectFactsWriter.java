package dev.codememory.writers.facts;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.facts.ProjectActivity;
import dev.codememory.writers.extract.DuckDbCandidateWriter;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes the facts worked out for each project as candidates (insert-if-absent on their
 * deterministic id) and marks the project handled at its extent, in one transaction per
 * chunk: validation and alignment take the candidates from there like any other.
 */
public class DuckDbProjectFactsWriter implements ItemWriter<ProjectActivity.Outcome> {

    public static final String STAGE = "facts";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbProjectFactsWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends ProjectActivity.Outcome> chunk) {
        Transactions.inTransaction(connections, () -> "write the facts of " + chunk.size() + " projects", c -> {
            for (ProjectActivity.Outcome outcome : chunk) {
                DuckDbCandidateWriter.insert(c, outcome.candidates());
                Sql.update(c, """
                        INSERT INTO stage_marks (subject_id, stage, done_at) VALUES (?, ?, now() AT TIME ZONE 'UTC')
                        ON CONFLICT DO NOTHING""", "facts|" + outcome.project() + "|" + outcome.extent(), STAGE);
            }
            return null;
        });
    }

}
