package dev.codememory.jobs.publish;

import dev.codememory.config.vector.VectorStore;
import java.util.function.Supplier;

/**
 * The team's vector collection for one publish run, connected on first use and closed
 * when the run ends. A holder rather than a {@link VectorStore} bean, so the job's own
 * vector store stays the only bean of that type.
 */
public class TeamVectors implements AutoCloseable {

    private final Supplier<? extends VectorStore> connect;

    private VectorStore store;

    public TeamVectors(Supplier<? extends VectorStore> connect) {
        this.connect = connect;
    }

    public synchronized VectorStore store() {
        if (store == null) {
            store = connect.get();
        }
        return store;
    }

    @Override
    public synchronized void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }

}
