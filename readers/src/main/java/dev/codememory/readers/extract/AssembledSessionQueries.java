package dev.codememory.readers.extract;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.Turn;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read side of the extract stage ({@code extractCandidatesStep}): sessions assembled
 * since the extractor last ran on them, loaded with their turns and observations.
 */
public final class AssembledSessionQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** Sessions assembled since the extractor last ran on them. */
    public static final String SESSIONS_TO_EXTRACT = """
            SELECT session_id, started_at FROM sessions WHERE extracted_seq < last_seq ORDER BY first_seq""";

    private AssembledSessionQueries() {
    }

    /** The assembled sessions whose ids are in the reader's key table, in its order. */
    public static List<AssembledSession> assembledSessions(Connection c) throws SQLException {
        List<SessionInfo> infos = Sql.list(c, """
                SELECT p.key, s.session_id, s.project, s.started_at, s.ended_at, s.end_reason, s.branch, s.first_seq,
                       s.last_seq, s.prompt_count, s.tool_count
                FROM %s p LEFT JOIN sessions s ON s.session_id = p.key ORDER BY p.ord"""
            .formatted(PendingItemReader.KEYS_TABLE), rs -> {
                if (rs.getString(2) == null) {
                    throw new SQLException("no session " + rs.getString(1));
                }
                return new SessionInfo(rs.getString(2), rs.getString(3), rs.getObject(4, LocalDateTime.class),
                        rs.getObject(5, LocalDateTime.class), rs.getString(6), rs.getString(7), rs.getLong(8),
                        rs.getLong(9), rs.getInt(10), rs.getInt(11));
            });
        List<List<Turn>> turns = PendingItemReader.perKey(c);
        Sql.each(c,
                """
                        SELECT p.ord, t.turn_id, t.session_id, t.project, t.prompt_event_id, t.prompt_text, t.reply_event_id,
                               t.reply_text, t.reply_source, t.prompt_ts, t.reply_ts
                        FROM turns t JOIN %s p ON p.key = t.session_id ORDER BY p.ord, t.prompt_ts, t.turn_id"""
                    .formatted(PendingItemReader.KEYS_TABLE),
                rs -> turns.get(rs.getInt(1))
                    .add(new Turn(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                            rs.getString(7), rs.getString(8), rs.getString(9), rs.getObject(10, LocalDateTime.class),
                            rs.getObject(11, LocalDateTime.class))));
        List<List<Observation>> observations = PendingItemReader.perKey(c);
        Sql.each(c, """
                SELECT p.ord, o.observation_id, o.session_id, o.project, o.tool, o.files::VARCHAR, o.command, o.failed,
                       o.error_text, o.duration_ms, o.ts, o.input_text, o.output_text
                FROM observations o JOIN %s p ON p.key = o.session_id ORDER BY p.ord, o.ts, o.observation_id"""
            .formatted(PendingItemReader.KEYS_TABLE), rs -> {
                List<String> files = MAPPER.readValue(rs.getString(6), new TypeReference<List<String>>() {
                });
                long duration = rs.getLong(10);
                Long durationMs = rs.wasNull() ? null : duration;
                observations.get(rs.getInt(1))
                    .add(new Observation(rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), files,
                            rs.getString(7), rs.getBoolean(8), rs.getString(9), durationMs,
                            rs.getObject(11, LocalDateTime.class), rs.getString(12), rs.getString(13)));
            });
        List<AssembledSession> sessions = new ArrayList<>(infos.size());
        for (int i = 0; i < infos.size(); i++) {
            sessions.add(new AssembledSession(infos.get(i), turns.get(i), observations.get(i)));
        }
        return sessions;
    }

}
