package dev.codememory.retrieval.team;

import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.team.TeamStoreException;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorHit;
import dev.codememory.processors.team.TeamProjectKey;
import dev.codememory.readers.team.TeamMemoryQueries;
import dev.codememory.retrieval.vector.milvus.MilvusVectorStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the team store for the query path: memories from PostgreSQL (one query per
 * project load), nearest vectors from the team's Milvus collection (connected on first
 * use, filtered by the project's team key, which is also the partition key).
 */
public final class TeamSearch implements TeamSource {

    /** A query never waits longer than this to connect to Milvus. */
    static final Duration MILVUS_CONNECT = Duration.ofSeconds(2);

    static final Duration MILVUS_CALL = Duration.ofSeconds(5);

    /** PostgreSQL's SQLSTATE for a relation that does not exist. */
    static final String UNDEFINED_TABLE = "42P01";

    private static final Logger log = LoggerFactory.getLogger(TeamSearch.class);

    private final TeamStores stores;

    private volatile MilvusVectorStore vectors;

    /**
     * Whether the team's collection exists, as {@link #connect} last found; null before
     * it asked. It never goes away once made.
     */
    private volatile Boolean published;

    private volatile boolean saidNothingPublished;

    /** Whether {@link #connect} has reached PostgreSQL once. */
    private volatile boolean postgresReached;

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
            if (UNDEFINED_TABLE.equals(e.getSQLState())) {
                nothingPublishedYet();
                return List.of();
            }
            throw new TeamStoreException("team store (PostgreSQL): cannot read memories: " + e.getMessage(), e);
        }
    }

    /**
     * Nearest team memories; none before the first publish, when {@link #connect} found
     * no team collection (a search of a missing one is an error the SDK logs). Asks
     * nothing more of Milvus than the search itself.
     */
    @Override
    public Map<String, Double> nearest(String project, float[] query, int topK) {
        if (Boolean.FALSE.equals(published)) {
            return Map.of();
        }
        Map<String, Double> out = new HashMap<>();
        for (VectorHit hit : vectors().search(query, topK,
                new VectorFilter(TeamProjectKey.of(project), Set.of(), Set.of("active"), null, null))) {
            out.put(hit.memoryId(), hit.score());
        }
        return out;
    }

    /**
     * Connects (PostgreSQL once, Milvus), and learns whether anyone published yet:
     * serve's warm-up and the query path, whenever it loads a project, call this ahead of
     * their reads. Asked of Milvus until the collection exists, then no more.
     */
    @Override
    public void connect() {
        if (!postgresReached) {
            // once reached, the driver is loaded: a new session's first read need not pay
            try (Connection c = stores.connection()) {
                postgresReached = true;
            }
            catch (SQLException e) {
                throw new TeamStoreException("team store (PostgreSQL): " + e.getMessage(), e);
            }
        }
        MilvusVectorStore store = vectors();
        if (!Boolean.TRUE.equals(published)) {
            published = store.exists();
            if (!published) {
                nothingPublishedYet();
            }
        }
    }

    /**
     * Before anyone published, the team's table and collection do not exist: that is no
     * failure, and said once.
     */
    private void nothingPublishedYet() {
        if (!saidNothingPublished) {
            saidNothingPublished = true;
            log.info("team store: nothing published yet (no team memories until a teammate runs --job=publish)");
        }
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
