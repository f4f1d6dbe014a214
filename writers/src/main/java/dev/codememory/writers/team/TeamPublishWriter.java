package dev.codememory.writers.team;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.vector.BatchEmbedding;
import dev.codememory.config.vector.MemoryTexts;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Publishes a chunk of shareable memories: their rows and quotes to PostgreSQL, their
 * vectors to the team's Milvus collection, then records them in DuckDB's
 * {@code team_published}. In that order, so nothing is recorded as published that the
 * team store does not hold; a chunk written twice after a crash is upserted twice, by
 * memory id, to the same result.
 *
 * <p>
 * A memory's vector is read from this home's own store, never embedded again — except a
 * composed memory's (a topic's team copy, {@link SharedMemory#composed()}): its words are
 * fewer than the local topic's, whose vector stands for lines the team must not see too,
 * so its own text is embedded, as the embed step would embed it.
 */
public class TeamPublishWriter implements ItemWriter<SharedMemory> {

    private static final Logger log = LoggerFactory.getLogger(TeamPublishWriter.class);

    private final Supplier<DuckDBConnection> connections;

    private final PostgresTeamStore store;

    private final VectorStore teamVectors;

    private final VectorStore localVectors;

    private final Function<String, String> teamProjectOf;

    private final String author;

    private final BatchEmbedding embedding;

    private final MemoryTexts texts;

    private final Map<String, String> teamProjects = new HashMap<>();

    /**
     * @param teamProjectOf a local project's key in the team store
     * @param author who publishes ({@code code-memory.team.author})
     * @param embedding the embedder of the local store's version, for composed memories
     * @param texts what text stands for a memory in the index
     */
    public TeamPublishWriter(Supplier<DuckDBConnection> connections, PostgresTeamStore store, VectorStore teamVectors,
            VectorStore localVectors, Function<String, String> teamProjectOf, String author, BatchEmbedding embedding,
            MemoryTexts texts) {
        this.connections = connections;
        this.store = store;
        this.teamVectors = teamVectors;
        this.localVectors = localVectors;
        this.teamProjectOf = teamProjectOf;
        this.author = author;
        this.embedding = embedding;
        this.texts = texts;
    }

    @Override
    public void write(Chunk<? extends SharedMemory> chunk) {
        List<String> ids = chunk.getItems().stream().filter(m -> !m.composed()).map(SharedMemory::memoryId).toList();
        Map<String, float[]> vectors = new HashMap<>(ids.isEmpty() ? Map.of() : localVectors.vectors(ids));
        List<? extends SharedMemory> composed = chunk.getItems().stream().filter(SharedMemory::composed).toList();
        if (!composed.isEmpty()) {
            float[][] embedded = embedding
                .embed(composed.stream().map(m -> texts.embeddingText(m.kind(), m.title(), m.body(), null)).toList());
            for (int i = 0; i < embedded.length; i++) {
                vectors.put(composed.get(i).memoryId(), embedded[i]);
            }
        }
        List<PostgresTeamStore.Published> published = new ArrayList<>();
        List<VectorRecord> records = new ArrayList<>();
        for (SharedMemory m : chunk.getItems()) {
            float[] vector = vectors.get(m.memoryId());
            if (vector == null) {
                log.warn("not published yet: {} has no vector in the local store", m.memoryId());
                continue;
            }
            String teamProject = teamProjects.computeIfAbsent(m.project(), teamProjectOf);
            published.add(new PostgresTeamStore.Published(m, teamProject, m.citation()));
            records.add(new VectorRecord(m.memoryId(), vector, teamProject, m.kind(), "active", m.createdTs()));
        }
        store.upsert(published, author);
        teamVectors.upsert(records);
        try (DuckDBConnection c = connections.get()) {
            try (DuckDBAppender staged = Staging.table(c, "stage_published",
                    "memory_id VARCHAR, team_project VARCHAR")) {
                for (PostgresTeamStore.Published p : published) {
                    staged.beginRow().append(p.memory().memoryId()).append(p.teamProject()).endRow();
                }
            }
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO team_published (memory_id, team_project, published_at)"
                        + " SELECT memory_id, team_project, now() AT TIME ZONE 'UTC' FROM temp.main.stage_published"
                        + " ON CONFLICT DO NOTHING");
            }
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot record published memories: " + e.getMessage(), e);
        }
        log.debug("published {} memories", published.size());
    }

}
