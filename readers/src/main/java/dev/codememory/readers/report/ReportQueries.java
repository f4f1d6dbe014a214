package dev.codememory.readers.report;

import dev.codememory.config.db.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code stats}, {@code history} and {@code export} read: counts, sessions with
 * their summaries, memories.
 */
public final class ReportQueries {

    /** Counts of what the store holds. */
    public record Counts(long events, Map<String, Long> eventsByType, Map<String, Long> eventsBySource, long rejects,
            long sessions, long projects, Map<String, Long> memoriesByKind, Map<String, Long> memoriesByState,
            Map<String, Long> tasksByStatus, long forgottenKeys) {
    }

    /**
     * How long captured events take to become memories, and what has not been graduated
     * yet.
     */
    public record Lag(long pendingEvents, LocalDateTime oldestPending, Double medianSeconds, Double p95Seconds,
            long memoriesMeasured) {
    }

    /** One job run. */
    public record Run(String job, String status, LocalDateTime startedAt, LocalDateTime finishedAt) {
    }

    /**
     * A session of a project with the summary graduation wrote for it (null when none
     * yet).
     */
    public record SessionLine(String sessionId, String project, LocalDateTime startedAt, LocalDateTime endedAt,
            int prompts, int tools, String branch, String summaryId, String summaryCitation, String summaryTitle,
            String summaryBody) {
    }

    /** A verified memory with its citation and the quotes it rests on. */
    public record Memory(String memoryId, String citation, String kind, String status, String project, String sessionId,
            LocalDateTime createdTs, String title, String body, String quotesJson) {
    }

    private ReportQueries() {
    }

    public static Counts counts(Connection c) throws SQLException {
        return new Counts(single(c, "SELECT count(*) FROM events"),
                grouped(c, "SELECT event_type, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC, 1"),
                grouped(c, "SELECT source, count(*) FROM events GROUP BY 1 ORDER BY 2 DESC, 1"),
                single(c, "SELECT count(*) FROM event_rejects"),
                single(c, "SELECT count(DISTINCT session_id) FROM events WHERE session_id IS NOT NULL"),
                single(c, "SELECT count(DISTINCT project) FROM events"), grouped(c, """
                        SELECT entry_type, count(*) FROM entries WHERE stage = 'verified' AND status = 'active'
                        GROUP BY 1 ORDER BY 2 DESC, 1"""), grouped(c, """
                        SELECT CASE WHEN stage = 'verified' THEN 'verified ' || status ELSE stage END, count(*)
                        FROM entries GROUP BY 1 ORDER BY 2 DESC, 1"""),
                grouped(c,
                        """
                                SELECT status, count(*) FROM entities WHERE entity_type = 'task' GROUP BY 1 ORDER BY 2 DESC, 1"""),
                single(c, "SELECT count(*) FROM forgotten"));
    }

    /**
     * How many of the newest memories {@link #lag} measures: quantiles of the last 2,000
     * are the figure a user reads, and the whole 30 days cost a join of every span with
     * its event (a quarter of a second at 100k memories).
     */
    public static final int LAG_SAMPLE = 2_000;

    /**
     * Events no session assembly has taken in yet (the oldest one's capture time), and
     * for the newest {@value #LAG_SAMPLE} memories verified in the last 30 days the time
     * from the capture of their newest source event to the memory: median and 95th
     * percentile.
     */
    public static Lag lag(Connection c) throws SQLException {
        long pending;
        LocalDateTime oldest;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                SELECT count(*), min(e.received_at) FROM events e LEFT JOIN sessions s ON s.session_id = e.session_id
                WHERE e.session_id IS NOT NULL AND e.seq > coalesce(s.last_seq, 0)""")) {
            rs.next();
            pending = rs.getLong(1);
            oldest = rs.getObject(2, LocalDateTime.class);
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("""
                WITH recent AS (
                  SELECT entry_id, created_at FROM entries
                  WHERE stage = 'verified' AND created_at >= (now() AT TIME ZONE 'UTC') - INTERVAL 30 DAY
                  ORDER BY created_at DESC, entry_id LIMIT %d),
                lags AS (
                  SELECT en.entry_id, epoch(en.created_at) - epoch(max(ev.received_at)) AS seconds
                  FROM recent en JOIN evidence_spans sp ON sp.entry_id = en.entry_id
                  JOIN events ev ON ev.event_id = sp.event_id
                  GROUP BY en.entry_id, en.created_at)
                SELECT quantile_cont(greatest(seconds, 0), 0.5), quantile_cont(greatest(seconds, 0), 0.95), count(*)
                FROM lags""".formatted(LAG_SAMPLE))) {
            rs.next();
            double median = rs.getDouble(1);
            Double medianOrNull = rs.wasNull() ? null : median;
            double p95 = rs.getDouble(2);
            Double p95OrNull = rs.wasNull() ? null : p95;
            return new Lag(pending, oldest, medianOrNull, p95OrNull, rs.getLong(3));
        }
    }

    public static List<Run> lastRuns(Connection c, int limit) throws SQLException {
        return Sql.list(
                c, """
                        SELECT job_name, status, started_at, finished_at FROM build_runs
                        ORDER BY started_at DESC, build_id DESC LIMIT ?""", rs -> new Run(rs.getString(1),
                        rs.getString(2), rs.getObject(3, LocalDateTime.class), rs.getObject(4, LocalDateTime.class)),
                limit);
    }

    /**
     * A project's sessions (all projects when {@code project} is null), newest first,
     * with their summaries.
     */
    public static List<SessionLine> sessions(Connection c, String project, int limit) throws SQLException {
        return Sql.list(c, """
                SELECT s.session_id, s.project, s.started_at, s.ended_at, s.prompt_count, s.tool_count, s.branch,
                       m.entry_id, ci.citation, m.title, m.body
                FROM sessions s
                LEFT JOIN (SELECT session_id, arg_max(entry_id, created_ts) AS entry_id FROM entries
                           WHERE entry_type = 'summary' AND stage = 'verified' AND status = 'active'
                           GROUP BY session_id) sm ON sm.session_id = s.session_id
                LEFT JOIN entries m ON m.entry_id = sm.entry_id
                LEFT JOIN citations ci ON ci.memory_id = m.entry_id
                WHERE (? IS NULL OR s.project = ?)
                ORDER BY s.started_at DESC, s.session_id LIMIT ?""",
                rs -> new SessionLine(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class),
                        rs.getObject(4, LocalDateTime.class), rs.getInt(5), rs.getInt(6), rs.getString(7),
                        rs.getString(8), rs.getString(9) == null ? null : "mem:" + rs.getString(9), rs.getString(10),
                        rs.getString(11)),
                project, project, limit);
    }

    /**
     * A project's verified memories (all projects when {@code project} is null), oldest
     * first.
     */
    public static List<Memory> memories(Connection c, String project) throws SQLException {
        return Sql.list(c, """
                SELECT e.entry_id, ci.citation, e.entry_type, e.status, e.project, e.session_id, e.created_ts, e.title,
                       e.body, e.quotes_json::VARCHAR
                FROM entries e LEFT JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND (? IS NULL OR e.project = ?)
                ORDER BY e.project, e.created_ts, e.entry_id""",
                rs -> new Memory(rs.getString(1), rs.getString(2) == null ? null : "mem:" + rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                        rs.getObject(7, LocalDateTime.class), rs.getString(8), rs.getString(9), rs.getString(10)),
                project, project);
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Map<String, Long> grouped(Connection c, String sql) throws SQLException {
        Map<String, Long> out = new LinkedHashMap<>();
        Sql.each(c, sql, rs -> out.put(rs.getString(1), rs.getLong(2)));
        return out;
    }

}
