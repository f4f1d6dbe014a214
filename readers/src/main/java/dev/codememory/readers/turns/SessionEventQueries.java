package dev.codememory.readers.turns;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The read side of the turns stage ({@code assembleSessionsStep}): sessions with new
 * events, and their events.
 */
public final class SessionEventQueries {

    /** Sessions with events the sessions table has not seen. */
    public static final String SESSIONS_TO_ASSEMBLE = """
            SELECT e.session_id, min(e.ts) FROM events e LEFT JOIN sessions s ON s.session_id = e.session_id
            WHERE e.session_id IS NOT NULL
            GROUP BY e.session_id, s.last_seq HAVING max(e.seq) > coalesce(s.last_seq, 0)
            ORDER BY min(e.seq)""";

    private SessionEventQueries() {
    }

    /**
     * The events of each session whose id is in the reader's key table, one list per
     * session in its order (each in seq order): one query for a page of sessions instead
     * of one per session.
     */
    public static List<List<StoredEvent>> sessionEvents(Connection c) throws SQLException {
        List<List<StoredEvent>> sessions = PendingItemReader.perKey(c);
        Sql.each(c,
                """
                        SELECT p.ord, e.event_id, e.seq, e.ts, e.event_type, e.session_id, e.project, e.payload::VARCHAR
                        FROM events e JOIN %s p ON p.key = e.session_id ORDER BY p.ord, e.seq"""
                    .formatted(PendingItemReader.KEYS_TABLE),
                rs -> sessions.get(rs.getInt(1))
                    .add(new StoredEvent(rs.getString(2), rs.getLong(3), rs.getObject(4, LocalDateTime.class),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8))));
        return sessions;
    }

}
