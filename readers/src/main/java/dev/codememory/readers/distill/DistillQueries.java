package dev.codememory.readers.distill;

import dev.codememory.config.db.Sql;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.config.distill.SessionText;
import dev.codememory.config.json.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read side of the distill stage: which sessions wait for the distiller, what each of
 * them said and did, and what the distiller's calls cost per day.
 */
public final class DistillQueries {

    private DistillQueries() {
    }

    /** The stage mark of a session distilled under a version. */
    public static String mark(String sessionId, String version) {
        return "distill|" + sessionId + "|" + version;
    }

    /**
     * Sessions summarised at their current extent (so finished and fully graduated), not
     * yet distilled under {@code version}, and not waiting for a retry after a failed
     * request: newest first, so the day's budget goes to the work the user is most likely
     * to come back to.
     */
    public static String sessionsToDistill(String version) {
        if (!version.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("a distiller version is letters, digits, dots and dashes: " + version);
        }
        return """
                SELECT s.session_id FROM sessions s
                WHERE EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'summary'
                              AND m.subject_id = 'summary|' || s.session_id || '|' || s.last_seq)
                  AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'distill'
                                  AND m.subject_id = 'distill|' || s.session_id || '|%1$s')
                  AND NOT EXISTS (SELECT 1 FROM distill_answers a WHERE a.session_id = s.session_id
                                  AND a.version = '%1$s' AND a.outcome = 'failed'
                                  AND a.next_attempt_at > now() AT TIME ZONE 'UTC')
                ORDER BY s.started_at DESC, s.session_id""".formatted(version);
    }

    /**
     * A session's texts in the order they happened: each prompt and its reply, each tool
     * call's input and output (the memory's own tools left out: they hold memories, not
     * the work). Null when the session is not stored.
     */
    public static DistillSession session(Connection c, String sessionId) throws SQLException {
        record Stored(String project, LocalDateTime ended) {
        }
        Optional<Stored> stored = Sql.first(c, """
                SELECT project, coalesce(ended_at, (SELECT max(ts) FROM events v WHERE v.session_id = s.session_id),
                                         started_at)
                FROM sessions s WHERE session_id = ?""",
                rs -> new Stored(rs.getString(1), rs.getObject(2, LocalDateTime.class)), sessionId);
        if (stored.isEmpty()) {
            return null;
        }
        List<SessionText> texts = Sql.list(c, """
                SELECT * FROM (
                  SELECT prompt_ts AS ts, 0 AS part, prompt_event_id AS event_id, 'prompt' AS field, NULL AS tool,
                         false AS failed, prompt_text AS text FROM turns WHERE session_id = ?1
                  UNION ALL
                  SELECT coalesce(reply_ts, prompt_ts), 1, reply_event_id, 'reply', NULL, false, reply_text
                  FROM turns WHERE session_id = ?1 AND reply_event_id IS NOT NULL AND reply_text IS NOT NULL
                  UNION ALL
                  SELECT ts, 2, observation_id, 'tool_input', tool, failed, input_text FROM observations
                  WHERE session_id = ?1 AND input_text IS NOT NULL AND tool NOT LIKE 'mcp%code-memory%'
                  UNION ALL
                  SELECT ts, 3, observation_id, 'tool_response', tool, failed, output_text FROM observations
                  WHERE session_id = ?1 AND output_text IS NOT NULL AND tool NOT LIKE 'mcp%code-memory%')
                WHERE text IS NOT NULL AND trim(text) <> ''
                ORDER BY ts, part, event_id""", rs -> new SessionText(rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getBoolean(6), rs.getString(7)), sessionId);
        return new DistillSession(sessionId, stored.get().project(), stored.get().ended(), texts);
    }

    /**
     * Tokens the distiller's calls cost on each of the last {@code days} days (UTC),
     * newest first.
     */
    public static Map<LocalDate, long[]> usagePerDay(Connection c, int days) throws SQLException {
        Map<LocalDate, long[]> usage = new LinkedHashMap<>();
        Sql.each(c, """
                SELECT day, count(*), sum(input_tokens), sum(output_tokens) FROM distill_calls
                GROUP BY day ORDER BY day DESC LIMIT ?""", rs -> usage.put(rs.getObject(1, LocalDate.class),
                new long[] { rs.getLong(2), rs.getLong(3), rs.getLong(4) }), days);
        return usage;
    }

    /** Sessions by distill outcome (answered, skipped, failed, gave_up), all versions. */
    public static Map<String, Long> outcomes(Connection c) throws SQLException {
        return counts(c, "SELECT outcome, count(*) FROM distill_answers GROUP BY outcome ORDER BY outcome");
    }

    /**
     * Claims by what became of them, all versions: {@code proven}, and each reason of
     * rejection.
     */
    public static Map<String, Long> claims(Connection c) throws SQLException {
        Map<String, Long> claims = new java.util.TreeMap<>();
        claims.put("proven", 0L);
        Sql.each(c, """
                SELECT CASE WHEN outcome = 'answered' THEN coalesce(json_array_length(claims_json::JSON), 0) ELSE 0
                       END, rejected_json FROM distill_answers""", rs -> {
            claims.merge("proven", rs.getLong(1), Long::sum);
            String rejected = rs.getString(2);
            if (rejected != null && Json.parse(rejected) instanceof Map<?, ?> reasons) {
                reasons.forEach((reason, n) -> claims.merge(String.valueOf(reason),
                        Long.parseLong(n instanceof Json.JsonNumber number ? number.literal() : String.valueOf(n)),
                        Long::sum));
            }
        });
        return claims;
    }

    private static Map<String, Long> counts(Connection c, String sql) throws SQLException {
        Map<String, Long> counts = new LinkedHashMap<>();
        Sql.each(c, sql, rs -> counts.put(rs.getString(1), rs.getLong(2)));
        return counts;
    }

}
