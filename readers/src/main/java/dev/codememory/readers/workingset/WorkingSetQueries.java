package dev.codememory.readers.workingset;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.StoredEvent;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The read side of the working set: a session's recent raw events, the session before a
 * {@code /clear}, and the events an {@code ev:} citation names.
 */
public final class WorkingSetQueries {

    /**
     * The event types the working set reads: prompts, tool calls and task events. The
     * rest (Stop replies, notifications, session markers) is left in the database.
     */
    public static final java.util.Set<String> WORK_TYPES = java.util.Set.of("UserPromptSubmit", "PostToolUse",
            "PostToolUseFailure", "TaskCreated", "TaskCompleted");

    static final String READ_TYPES = "('UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'TaskCreated', "
            + "'TaskCompleted')";

    /**
     * The tools whose calls the working set reads; the payloads of other tools (Read,
     * Grep, web fetches: large responses) are never loaded.
     */
    static final String READ_TOOLS = "('Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Bash', 'TodoWrite', "
            + "'TaskCreate', 'TaskUpdate')";

    private WorkingSetQueries() {
    }

    /**
     * The newest {@code limit} events of the session the working set reads, however old,
     * in seq order: bounded by number, not by time, so a session resumed days later reads
     * as much of itself as one resumed a minute later.
     */
    public static List<StoredEvent> sessionEvents(Connection c, String sessionId, int limit) throws SQLException {
        String sql = """
                WITH recent AS (SELECT event_id, seq, ts, event_type, session_id, project, payload FROM events
                                WHERE session_id = ? AND event_type IN %s
                                  AND (event_type <> 'PostToolUse' AND event_type <> 'PostToolUseFailure'
                                       OR json_extract_string(payload, '$.tool_name') IN %s)
                                ORDER BY seq DESC LIMIT ?)
                SELECT event_id, seq, ts, event_type, session_id, project, payload::VARCHAR FROM recent
                ORDER BY seq""".formatted(READ_TYPES, READ_TOOLS);
        return Sql.list(c, sql, WorkingSetQueries::storedEvent, sessionId, limit);
    }

    /**
     * An event read from the columns {@code event_id, seq, ts, event_type, session_id,
     * project, payload}, in that order.
     */
    public static StoredEvent storedEvent(ResultSet rs) throws SQLException {
        return new StoredEvent(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7));
    }

    /**
     * The session of the project, other than {@code currentSession}, with the newest
     * event not older than {@code since}: the one a {@code /clear} left.
     */
    public static Optional<String> previousSession(Connection c, String project, String currentSession,
            LocalDateTime since) throws SQLException {
        return newestSession(c, project, currentSession, since, null).map(SessionSeen::sessionId);
    }

    /** A session and the time of its newest event. */
    public record SessionSeen(String sessionId, LocalDateTime lastTs) {
    }

    /**
     * The session of the project, other than {@code currentSession}, whose newest event
     * is the newest among those not older than {@code since} (null: any age) and not
     * newer than {@code until} (null: any), with that event's time.
     */
    public static Optional<SessionSeen> newestSession(Connection c, String project, String currentSession,
            LocalDateTime since, LocalDateTime until) throws SQLException {
        String sql = """
                SELECT session_id, max(ts) FROM events
                WHERE project = ? AND session_id IS NOT NULL AND session_id IS DISTINCT FROM ? AND event_type IN %s
                  AND (CAST(? AS TIMESTAMP) IS NULL OR ts >= ?) AND (CAST(? AS TIMESTAMP) IS NULL OR ts <= ?)
                GROUP BY session_id ORDER BY max(ts) DESC, max(seq) DESC LIMIT 1""".formatted(READ_TYPES);
        return Sql.first(c, sql, rs -> new SessionSeen(rs.getString(1), rs.getObject(2, LocalDateTime.class)), project,
                currentSession, since, since, until, until);
    }

    /** An event as {@code show ev:…} prints it. */
    public record CitedEvent(String eventId, String sessionId, String project, LocalDateTime ts, String eventType,
            String payloadJson) {
    }

    /** The events whose id starts with {@code idPrefix}, in seq order. */
    public static List<CitedEvent> eventsByPrefix(Connection c, String idPrefix) throws SQLException {
        return Sql.list(c, """
                SELECT event_id, session_id, project, ts, event_type, payload::VARCHAR FROM events
                WHERE starts_with(event_id, ?) ORDER BY seq""", rs -> new CitedEvent(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getObject(4, LocalDateTime.class), rs.getString(5), rs.getString(6)), idPrefix);
    }

}
