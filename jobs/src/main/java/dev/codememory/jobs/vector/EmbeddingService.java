package dev.codememory.jobs.vector;

import dev.codememory.config.vector.BatchEmbedding;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.retrieval.embed.Embedder;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.DisposableBean;

/**
 * The embedder, loaded on first use (the model takes a second or two to load, and most
 * runs — ingest — never need it), kept for the life of the process, closed with it.
 */
public class EmbeddingService implements BatchEmbedding, DisposableBean {

    private final Supplier<Embedder> factory;

    private final EmbeddingVersion version;

    private volatile Embedder embedder;

    public EmbeddingService(Supplier<Embedder> factory, EmbeddingVersion version) {
        this.factory = factory;
        this.version = version;
    }

    public EmbeddingVersion version() {
        return version;
    }

    @Override
    public float[][] embed(List<String> texts) {
        return embedder().embed(texts);
    }

    public Embedder embedder() {
        Embedder current = embedder;
        if (current == null) {
            synchronized (this) {
                current = embedder;
                if (current == null) {
                    current = factory.get();
                    if (!current.version().equals(version)) {
                        throw new IllegalStateException("the embedder produces " + current.version().id()
                                + ", the settings promise " + version.id());
                    }
                    embedder = current;
                }
            }
        }
        return current;
    }

    @Override
    public void destroy() throws Exception {
        Embedder current = embedder;
        if (current != null) {
            current.close();
        }
    }

}
