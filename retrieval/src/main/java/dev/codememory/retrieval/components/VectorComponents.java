package dev.codememory.retrieval.components;

import dev.codememory.retrieval.vector.DuckDbVectorStore;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import dev.codememory.config.settings.HomeSettings;
import dev.codememory.config.team.TeamProperties;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.MemoryTexts;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.retrieval.embed.Embedder;
import dev.codememory.retrieval.embed.EmbeddingTexts;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.embed.TorchScriptEmbedder;
import dev.codememory.retrieval.team.TeamSearch;
import dev.codememory.retrieval.team.TeamSource;
import dev.codememory.retrieval.team.TeamStores;
import dev.codememory.retrieval.vector.milvus.MilvusSettings;
import dev.codememory.retrieval.vector.milvus.MilvusVectorStore;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * The one place the embedder and the vector store are chosen from the settings
 * ({@code code-memory.embedding.*}, {@code code-memory.vector-store}), for the jobs that
 * write vectors and for every reader of them: {@code query}, the hooks, {@code serve},
 * {@code eval}. A query therefore searches the store the embed step filled, with vectors
 * of the same model.
 */
public final class VectorComponents {

    private final CodeMemoryHome home;

    private final CodeMemoryProperties settings;

    private final TeamProperties team;

    public VectorComponents(CodeMemoryHome home, CodeMemoryProperties settings) {
        this(home, settings, TeamProperties.off());
    }

    public VectorComponents(CodeMemoryHome home, CodeMemoryProperties settings, TeamProperties team) {
        this.home = home;
        this.settings = settings;
        this.team = team;
    }

    /**
     * The components for a home, from the settings files in it (for the commands that run
     * without Spring).
     */
    public static VectorComponents forHome(CodeMemoryHome home) {
        return new VectorComponents(home, HomeSettings.load(home), HomeSettings.team(home));
    }

    public CodeMemoryProperties settings() {
        return settings;
    }

    /**
     * What the configured model produces; every stored and every query vector carries it.
     */
    public EmbeddingVersion version() {
        CodeMemoryProperties.Embedding embedding = settings.embedding();
        if (embedding.model().equals("torchscript")) {
            CodeMemoryProperties.TorchScript ts = embedding.torchscript();
            String name = ts.name() != null ? ts.name()
                    : Path.of(ts.url().replaceFirst("^[a-z]+:/*", "/")).getFileName().toString();
            return new EmbeddingVersion(name, ts.dimension(), "mean", MiniLmOnnxEmbedder.MAX_TOKENS);
        }
        return MiniLmOnnxEmbedder.VERSION;
    }

    /** Loads the configured model when called (1–5 s); the caller closes it. */
    public Supplier<Embedder> embedder() {
        Path cache = home.root().resolve("djl");
        CodeMemoryProperties.Embedding embedding = settings.embedding();
        EmbeddingVersion version = version();
        if (embedding.model().equals("torchscript")) {
            CodeMemoryProperties.TorchScript ts = embedding.torchscript();
            return () -> new TorchScriptEmbedder(ts.url(), Path.of(ts.tokenizer()), version, false, cache);
        }
        return () -> new MiniLmOnnxEmbedder(cache, embedding.batchSize(), version.maxTokens(), embedding.threads());
    }

    /** What text stands for each memory in the index. */
    public MemoryTexts memoryTexts() {
        return new EmbeddingTexts(EmbeddingTexts.EXCHANGE_BUDGET);
    }

    /**
     * The configured store of the configured model's vectors: the DuckDB table on these
     * connections, or the Milvus collection (connected now; the caller closes it).
     */
    public VectorStore vectorStore(Supplier<DuckDBConnection> connections) {
        return switch (settings.vectorStore()) {
            case "milvus" -> MilvusVectorStore.connect(new MilvusSettings(settings.milvus().uri(),
                    settings.milvus().token(), settings.milvus().database()), version());
            default -> new DuckDbVectorStore(connections, version());
        };
    }

    public TeamProperties team() {
        return team;
    }

    /**
     * The team store to read beside the local one, or null when team memory is off. It
     * connects on first use; the caller closes it (a query service closes its own).
     */
    public TeamSource teamSource() {
        return team.enabled() ? new TeamSearch(new TeamStores(team, version())) : null;
    }

    public boolean milvus() {
        return settings.vectorStore().equals("milvus");
    }

}
