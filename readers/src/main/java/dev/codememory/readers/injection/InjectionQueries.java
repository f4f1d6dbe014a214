package dev.codememory.readers.injection;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What was injected into Claude Code's context and when, from {@code injections} joined
 * to {@code injection_items}: every time a memory was shown, and every memory shown in a
 * session. Injections that carried no memory are not listed.
 */
public final class InjectionQueries {

    private static final String SELECT = """
            SELECT i.injection_id, i.injected_at, i.session_id, i.prompt_event_id, i.hook_event_name, i.band,
                   i.chars, t.rank, t.citation, t.memory_id, t.score
            FROM injections i JOIN injection_items t ON t.injection_id = i.injection_id
            """;

    private InjectionQueries() {
    }

    /** Every injection of the memory, oldest first. */
    public static List<InjectedMemory> forMemory(Connection c, String memoryId) throws SQLException {
        return query(c, SELECT + "WHERE t.memory_id = ? ORDER BY i.injected_at, i.injection_id, t.rank", memoryId);
    }

    /** Every memory injected in the session, oldest injection first, then by rank. */
    public static List<InjectedMemory> forSession(Connection c, String sessionId) throws SQLException {
        return query(c, SELECT + "WHERE i.session_id = ? ORDER BY i.injected_at, i.injection_id, t.rank", sessionId);
    }

    /**
     * The citations of the continuity blocks the session's context holds by now: those of
     * its latest session-start injection and of every continuity injection since (all of
     * them when no session start was injected), each once.
     */
    public static Set<String> continuityShown(Connection c, String sessionId) throws SQLException {
        return new LinkedHashSet<>(Sql.list(c, """
                WITH latest AS (SELECT max(injected_at) AS at FROM injections
                                WHERE session_id = ? AND band = 'session_start')
                SELECT t.citation FROM injections i JOIN injection_items t ON t.injection_id = i.injection_id, latest
                WHERE i.session_id = ? AND i.band IN ('session_start', 'continuity')
                  AND i.injected_at >= coalesce(latest.at, '-infinity'::TIMESTAMP)
                ORDER BY i.injected_at, t.rank""", rs -> rs.getString(1), sessionId, sessionId));
    }

    private static List<InjectedMemory> query(Connection c, String sql, String key) throws SQLException {
        return Sql.list(c, sql,
                rs -> new InjectedMemory(rs.getString(1), rs.getObject(2, LocalDateTime.class), rs.getString(3),
                        rs.getString(4), rs.getString(5), rs.getString(6), rs.getInt(7), rs.getInt(8), rs.getString(9),
                        rs.getString(10), rs.getDouble(11)),
                key);
    }

}
