package dev.codememory.writers.team;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.vector.VectorStore;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Withdraws published memories that are gone here (forgotten, merged away): a tombstone
 * in PostgreSQL, the vector deleted from Milvus, then {@code team_published.withdrawn_at}
 * set. Repeatable, like the publish writer.
 */
public class TeamWithdrawWriter implements ItemWriter<String> {

    private final Supplier<DuckDBConnection> connections;

    private final PostgresTeamStore store;

    private final VectorStore teamVectors;

    public TeamWithdrawWriter(Supplier<DuckDBConnection> connections, PostgresTeamStore store,
            VectorStore teamVectors) {
        this.connections = connections;
        this.store = store;
        this.teamVectors = teamVectors;
    }

    @Override
    public void write(Chunk<? extends String> chunk) {
        List<String> ids = List.copyOf(chunk.getItems());
        store.withdraw(ids);
        teamVectors.delete(ids);
        try (DuckDBConnection c = connections.get()) {
            Sql.batch(c, "UPDATE team_published SET withdrawn_at = now() AT TIME ZONE 'UTC' WHERE memory_id = ?", ids,
                    id -> new Object[] { id });
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot record withdrawn memories: " + e.getMessage(), e);
        }
    }

}
