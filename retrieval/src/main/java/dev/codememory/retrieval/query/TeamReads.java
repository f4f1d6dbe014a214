package dev.codememory.retrieval.query;

import dev.codememory.config.team.TeamMemory;
import dev.codememory.retrieval.team.TeamSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The team store as {@link QueryService} reads it: each read runs on a daemon thread and
 * is given {@link TeamSource#waitLimit}; one that fails or takes longer is logged and
 * answered with null, so the query is answered from the local store alone. Without a team
 * store every read is null.
 */
final class TeamReads {

    /** Logs as the query service, whose work this is. */
    private static final Logger log = LoggerFactory.getLogger(QueryService.class);

    private TeamSource team;

    /** Whether the team store's last read failed or timed out. */
    private volatile boolean down;

    /** Reads this team store (null: none); closes it with {@link #close}. */
    void use(TeamSource team) {
        this.team = team;
    }

    /**
     * {@code off} (no team store), {@code down} (its last read failed or timed out) or
     * {@code ok}.
     */
    String state() {
        return team == null ? "off" : down ? "down" : "ok";
    }

    /**
     * The team's memories of the project, being read (null: no team store, or the
     * all-projects index, which stays local).
     */
    Future<List<TeamMemory>> memories(String project) {
        if (team == null || project == null) {
            return null;
        }
        QueryService.VECTOR_SEARCHES.submit(this::connect); // the first vector search
                                                            // need not wait
        return QueryService.VECTOR_SEARCHES.submit(() -> team.memories(project));
    }

    /**
     * The team's nearest memories of the project to the vector and their cosines, being
     * read (null: no team store, or no project).
     */
    Future<Map<String, Double>> nearest(String project, float[] vector, int candidates) {
        return team == null || project == null ? null
                : QueryService.VECTOR_SEARCHES.submit(() -> team.nearest(project, vector, candidates));
    }

    /**
     * What the team store answered within its wait, or null (logged) when it failed or
     * was too slow: the answer then comes from the local store alone.
     */
    <T> T await(Future<T> answer) {
        return await(answer, null);
    }

    /** As {@link #await(Future)}, waiting at most {@code most} (null: no less). */
    <T> T await(Future<T> answer, Duration most) {
        if (answer == null) {
            return null;
        }
        long wait = most == null ? team.waitLimit().toMillis()
                : Math.max(0, Math.min(team.waitLimit().toMillis(), most.toMillis()));
        down = true;
        try {
            T value = answer.get(wait, TimeUnit.MILLISECONDS);
            down = false;
            return value;
        }
        catch (TimeoutException e) {
            answer.cancel(true);
            log.warn("team store gave no answer within {} ms, answering from local memories only", wait);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (ExecutionException e) {
            log.warn("team store unavailable, answering from local memories only: {}", e.getCause().getMessage());
        }
        return null;
    }

    /**
     * Connects to the team store, if any, now rather than at the first read (a failure is
     * only logged: the first read tries again).
     */
    void connect() {
        if (team != null) {
            try {
                team.connect();
            }
            catch (RuntimeException e) {
                log.debug("team vector store not connected: {}", e.getMessage());
            }
        }
    }

    /** Closes the team store, if any; a failure is only logged. */
    void close() {
        if (team != null) {
            try {
                team.close();
            }
            catch (RuntimeException e) {
                log.debug("closing the team store failed: {}", e.getMessage());
            }
        }
    }

}
