package dev.codememory.readers.align;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.graduate.SourceTextLookup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Source texts for alignment, loaded a session at a time: the first look-up of an event
 * reads every prompt, reply and tool text of its session in one query, since the entries
 * being aligned arrive in time order and their neighbours quote the same session. The
 * last few sessions are kept. Create one per step run.
 */
public class SessionSourceTexts implements SourceTextLookup {

    private static final int SESSIONS_KEPT = 4;

    private final Supplier<DuckDBConnection> connections;

    private final Map<String, Map<String, String>> sessions = new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, String>> eldest) {
            return size() > SESSIONS_KEPT;
        }
    };

    public SessionSourceTexts(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public synchronized String text(String eventId, String field) {
        String key = eventId + '|' + field;
        for (Map<String, String> texts : sessions.values()) {
            if (texts.containsKey(key)) {
                return texts.get(key);
            }
        }
        try (Connection c = connections.get()) {
            String session = sessionOf(c, eventId);
            if (session == null) {
                return null;
            }
            Map<String, String> texts = load(c, session);
            sessions.put(session, texts);
            return texts.get(key);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the source of " + eventId + ": " + e.getMessage(), e);
        }
    }

    private static String sessionOf(Connection c, String eventId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT session_id FROM events WHERE event_id = ?")) {
            ps.setString(1, eventId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static Map<String, String> load(Connection c, String session) throws SQLException {
        Map<String, String> texts = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                """
                        SELECT prompt_event_id, 'prompt', prompt_text FROM turns WHERE session_id = ?1
                        UNION ALL SELECT reply_event_id, 'reply', reply_text FROM turns
                                  WHERE session_id = ?1 AND reply_event_id IS NOT NULL
                        UNION ALL SELECT observation_id, 'tool_input', input_text FROM observations WHERE session_id = ?1
                        UNION ALL SELECT observation_id, 'tool_response', output_text FROM observations WHERE session_id = ?1""")) {
            ps.setString(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    texts.putIfAbsent(rs.getString(1) + '|' + rs.getString(2), rs.getString(3));
                }
            }
        }
        return texts;
    }

}
