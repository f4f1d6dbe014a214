package dev.codememory.jobs.team;

import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.team.TeamStoreException;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.processors.team.TeamProjectKey;
import dev.codememory.readers.team.TeamMemoryQueries;
import dev.codememory.writers.vector.milvus.MilvusVectorStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the team store for the query path: memories from PostgreSQL (one query per
 * project load), nearest vectors from the team's Milvus collection (connected on first
 * use, filtered by the project's team key, which is also the partition key).
 */
public final class TeamSearch implements TeamSource {

    /** A query never waits longer than this to connect to Milvus. */
    static final Duration MILVUS_CONNECT = Duration.ofSeconds(2);

    static final Duration MILVUS_CALL = Duration.ofSeconds(5);

    private final TeamStores stores;

    private volatile MilvusVectorStore vectors;

    public TeamSearch(TeamStores stores) {
        this.stores = stores;
    }

    @Override
    public Duration waitLimit() {
        return stores.settings().timeout();
    }

    @Override
    public List<TeamMemory> memories(String project) {
        String author = stores.settings().author();
        try (Connection c = stores.connection()) {
            return TeamMemoryQueries.memories(c, stores.settings().postgres().schema(), TeamProjectKey.of(project))
                .stream()
                .filter(m -> !m.author().equals(author))
                .toList();
        }
        catch (SQLException e) {
            throw new TeamStoreException("team store (PostgreSQL): cannot read memories: " + e.getMessage(), e);
        }
    }

    @Override
    public Map<String, Double> nearest(String project, float[] query, int topK) {
        Map<String, Double> out = new HashMap<>();
        for (VectorHit hit : vectors().search(query, topK,
                new VectorFilter(TeamProjectKey.of(project), Set.of(), Set.of("active"), null, null))) {
            out.put(hit.memoryId(), hit.score());
        }
        return out;
    }

    @Override
    public void connect() {
        vectors();
    }

    private MilvusVectorStore vectors() {
        if (vectors == null) {
            synchronized (this) {
                if (vectors == null) {
                    vectors = stores.vectors(MILVUS_CONNECT, MILVUS_CALL);
                }
            }
        }
        return vectors;
    }

    @Override
    public void close() {
        MilvusVectorStore open = vectors;
        if (open != null) {
            try {
                open.close();
            }
            catch (RuntimeException e) {
                // closing a client of a server that went away
            }
        }
    }

}
