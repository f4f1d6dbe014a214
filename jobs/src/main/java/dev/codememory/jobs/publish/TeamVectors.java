package dev.codememory.jobs.publish;

import dev.codememory.config.vector.VectorStore;
import dev.codememory.retrieval.vector.milvus.MilvusVectorStore;
import java.util.function.Supplier;

/**
 * The team's vector collection for one publish run, connected on first use and closed
 * when the run ends. A holder rather than a {@link VectorStore} bean, so the job's own
 * vector store stays the only bean of that type.
 */
public class TeamVectors implements AutoCloseable {

    private final Supplier<MilvusVectorStore> connect;

    private MilvusVectorStore store;

    public TeamVectors(Supplier<MilvusVectorStore> connect) {
        this.connect = connect;
    }

    public synchronized MilvusVectorStore store() {
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
