package dev.codememory.readers.continuity;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Reads the continuity scores graduation records ({@code session_continuity}): how much
 * each session went on with the previous session of its project.
 */
public final class ContinuityQueries {

    /**
     * One session's score.
     *
     * @param score the work items both sessions have over the items of the smaller of the
     * two; null when either has none
     */
    public record Score(String sessionId, String previousSessionId, LocalDateTime startedAt, int previousItems,
            int ownItems, int sharedItems, Double score) {
    }

    private ContinuityQueries() {
    }

    /** The newest {@code limit} scored sessions of the project (all projects: null). */
    public static List<Score> recent(Connection c, String project, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT k.session_id, k.previous_session_id, s.started_at, k.previous_items, k.own_items, k.shared_items,
                       k.score
                FROM session_continuity k JOIN sessions s ON s.session_id = k.session_id
                WHERE ? IS NULL OR s.project = ?
                ORDER BY s.started_at DESC, k.session_id LIMIT ?""", rs -> {
            double score = rs.getDouble(7);
            Double known = rs.wasNull() ? null : score;
            return new Score(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class), rs.getInt(4),
                    rs.getInt(5), rs.getInt(6), known);
        }, project, project, limit);
    }

    /** The mean score of these sessions that have one; empty when none has. */
    public static OptionalDouble mean(List<Score> scores) {
        return scores.stream().filter(s -> s.score() != null).mapToDouble(Score::score).average();
    }

}
