package dev.codememory.retrieval.team;

import dev.codememory.config.team.TeamMemory;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The team store as the query path reads it: the memories others published for a project,
 * and their vectors nearest to a query. Either may throw when the store is down; the
 * query path then answers from the local store alone.
 */
public interface TeamSource extends AutoCloseable {

    /** How long a query waits for the team store. */
    Duration waitLimit();

    /**
     * The live memories of the local project's team project that others published (this
     * home's own come from its local store).
     */
    List<TeamMemory> memories(String project);

    /**
     * The team memories of the project nearest to {@code query}: memory id → cosine.
     */
    Map<String, Double> nearest(String project, float[] query, int topK);

    /**
     * Opens what {@link #nearest} needs (a Milvus client takes a second or two to
     * connect), so that the first query does not pay it.
     */
    default void connect() {
    }

    @Override
    void close();

}
