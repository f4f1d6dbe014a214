package dev.codememory.readers.align;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.SourceTextLookup;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * Source texts for alignment. The align step hands it each chunk's quoted events before
 * the chunk is processed ({@link #prefetch}), and their texts are read together; a
 * look-up of any other event (a memory shown, a quote disclosed) reads every prompt,
 * reply and tool text of its session in one query, and the last few sessions are kept.
 * Create one per step run.
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

    private Set<String> prefetchedEvents = Set.of();

    private Map<String, String> prefetched = Map.of();

    public SessionSourceTexts(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /**
     * Reads the texts of these events for the look-ups that follow (replacing what the
     * previous call read): one scan of {@code turns} and one of {@code observations} for
     * the whole list, passed as one array. A thousand entries' quotes come from some
     * thirty sessions, and reading them a session at a time (two statements each) was
     * most of the align step's time; a list of single parameters or literals costs DuckDB
     * more than the scans.
     */
    public synchronized void prefetch(Collection<String> eventIds) {
        Set<String> ids = new LinkedHashSet<>(eventIds);
        Map<String, String> texts = new HashMap<>();
        try (Connection c = connections.get()) {
            Array list = c.createArrayOf("VARCHAR", ids.toArray());
            Sql.each(c, """
                    SELECT prompt_event_id, prompt_text, reply_event_id, reply_text FROM turns
                    WHERE prompt_event_id = ANY(?1::VARCHAR[]) OR reply_event_id = ANY(?1::VARCHAR[])""", rs -> {
                keep(texts, rs.getString(1), "prompt", rs.getString(2));
                keep(texts, rs.getString(3), "reply", rs.getString(4));
            }, list);
            Sql.each(c, """
                    SELECT observation_id, input_text, output_text FROM observations
                    WHERE observation_id = ANY(?1::VARCHAR[])""", rs -> {
                keep(texts, rs.getString(1), "tool_input", rs.getString(2));
                keep(texts, rs.getString(1), "tool_response", rs.getString(3));
            }, list);
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read the sources of " + ids.size() + " events: " + e.getMessage(), e);
        }
        prefetchedEvents = Set.copyOf(ids);
        prefetched = texts;
    }

    private static String key(String eventId, String field) {
        return eventId + '|' + field;
    }

    /** The first text read for an event's field, whichever way it was read. */
    private static void keep(Map<String, String> texts, String eventId, String field, String text) {
        if (eventId != null) {
            texts.putIfAbsent(key(eventId, field), text);
        }
    }

    @Override
    public synchronized String text(String eventId, String field) {
        String key = key(eventId, field);
        if (prefetchedEvents.contains(eventId)) {
            return prefetched.get(key);
        }
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
        return Sql.first(c, "SELECT session_id FROM events WHERE event_id = ?", rs -> rs.getString(1), eventId)
            .orElse(null);
    }

    private static Map<String, String> load(Connection c, String session) throws SQLException {
        Map<String, String> texts = new HashMap<>();
        Sql.each(c,
                """
                        SELECT prompt_event_id, 'prompt', prompt_text FROM turns WHERE session_id = ?1
                        UNION ALL SELECT reply_event_id, 'reply', reply_text FROM turns
                                  WHERE session_id = ?1 AND reply_event_id IS NOT NULL
                        UNION ALL SELECT observation_id, 'tool_input', input_text FROM observations WHERE session_id = ?1
                        UNION ALL SELECT observation_id, 'tool_response', output_text FROM observations WHERE session_id = ?1""",
                rs -> keep(texts, rs.getString(1), rs.getString(2), rs.getString(3)), session);
        return texts;
    }

}
