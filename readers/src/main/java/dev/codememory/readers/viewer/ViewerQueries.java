package dev.codememory.readers.viewer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the web viewer reads beyond the commands' own queries ({@code ReportQueries},
 * {@code CitationQueries}, {@code InjectionQueries}): the timeline, a session's events in
 * order, the task board and the health figures. Every statement is bounded by a limit or
 * keyed by an indexed column, so a page stays fast at a hundred thousand memories.
 */
public final class ViewerQueries {

    /** Longest text of one event the viewer shows (a pasted log is cut, and says so). */
    public static final int MAX_EVENT_CHARS = 4_000;

    private static final int PREVIEW_CHARS = 160;

    /**
     * One line of the timeline: a session that started, an event captured, or a memory
     * graduated.
     *
     * @param kind {@code session}, {@code event} or {@code memory}
     * @param id the session id, event id or citation
     * @param type the event type or memory kind (a session's: its prompt and tool counts)
     * @param seq an event's ingest order (0 for the others)
     */
    public record TimelineItem(String kind, String id, LocalDateTime ts, String project, String sessionId, String type,
            String text, long seq) {
    }

    /**
     * One event of a session, its texts cut at {@value #MAX_EVENT_CHARS} characters.
     */
    public record SessionEvent(String eventId, long seq, LocalDateTime ts, String eventType, String prompt,
            String reply, String tool, String toolInput, String toolResponse, boolean failed, String detail) {
    }

    /** A task on the board with its blockers and its history, oldest first. */
    public record TaskCard(String taskId, String project, String title, String status, String priority,
            List<String> blockers, List<String> history) {
    }

    /** A memory in a short list: citation, kind, status, title. */
    public record MemoryLine(String memoryId, String citation, String kind, String status, LocalDateTime createdTs,
            String title) {
    }

    /**
     * One reject with its reason: a spool line ingest could not read, or a candidate
     * graduation refused.
     */
    public record Reject(String stage, String subject, String reason, LocalDateTime at) {
    }

    /**
     * A session as the timeline tells it: when and where, how much was asked and done,
     * the summary graduation wrote for it (null before) and its memories by kind.
     *
     * @param summaryCitation the citation of its summary memory, null when none
     * @param memoriesByKind its current verified memories per kind, most first
     */
    public record SessionRow(String sessionId, String project, LocalDateTime firstTs, LocalDateTime lastTs,
            long prompts, long toolCalls, String branch, String summaryCitation, String summaryBody,
            Map<String, Long> memoriesByKind) {
    }

    /**
     * The event types a reader follows a session by: what the user asked, what Claude
     * answered, the tools it ran (the others are bookkeeping of Claude Code).
     */
    public static final List<String> STORY_EVENTS = List.of("UserPromptSubmit", "Stop", "PostToolUse",
            "PostToolUseFailure");

    private ViewerQueries() {
    }

    /** The projects with captured sessions, the most recently active first. */
    public static List<String> projects(Connection c) throws SQLException {
        List<String> projects = new ArrayList<>();
        try (PreparedStatement ps = c
            .prepareStatement("SELECT project FROM sessions GROUP BY project ORDER BY max(started_at) DESC")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    projects.add(rs.getString(1));
                }
            }
        }
        return projects;
    }

    /**
     * The newest {@code limit} sessions, events and verified memories of a project (all
     * projects when null), newest first.
     */
    public static List<TimelineItem> timeline(Connection c, String project, int limit) throws SQLException {
        List<TimelineItem> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                """
                        SELECT * FROM (
                          (SELECT 'session' AS kind, session_id AS id, started_at AS ts, project, session_id,
                                  prompt_count || ' prompts, ' || tool_count || ' tool calls' AS type, coalesce(branch, '') AS text,
                                  0 AS seq
                           FROM sessions WHERE (? IS NULL OR project = ?) ORDER BY started_at DESC LIMIT ?)
                          UNION ALL
                          (SELECT 'memory', 'mem:' || ci.citation, e.created_ts, e.project, e.session_id, e.entry_type, e.title, 0
                           FROM (SELECT entry_id, created_ts, project, session_id, entry_type, title FROM entries
                                 WHERE stage = 'verified' AND status = 'active' AND (? IS NULL OR project = ?)
                                 ORDER BY created_ts DESC LIMIT ?) e
                           JOIN citations ci ON ci.memory_id = e.entry_id)
                          UNION ALL
                          (SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                           FROM events WHERE seq IN (SELECT seq FROM events WHERE (? IS NULL OR project = ?)
                                                     ORDER BY ts DESC, seq DESC LIMIT ?)))
                        ORDER BY ts DESC, kind, id LIMIT ?"""
                    .formatted(eventPreview()))) {
            int i = 1;
            for (int part = 0; part < 3; part++) {
                ps.setString(i++, project);
                ps.setString(i++, project);
                ps.setInt(i++, limit);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(timelineItem(rs));
                }
            }
        }
        return items;
    }

    /**
     * Events ingested after {@code afterSeq} (at most {@code limit}, oldest first): what
     * the live timeline adds.
     */
    public static List<TimelineItem> eventsAfter(Connection c, long afterSeq, int limit) throws SQLException {
        List<TimelineItem> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                FROM events WHERE seq > ? ORDER BY seq LIMIT ?""".formatted(eventPreview()))) {
            ps.setLong(1, afterSeq);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(timelineItem(rs));
                }
            }
        }
        return items;
    }

    /**
     * Verified memories graduated after {@code after} (creation time of the row, UTC), at
     * most {@code limit}, oldest first.
     */
    public static List<TimelineItem> memoriesAfter(Connection c, LocalDateTime after, int limit) throws SQLException {
        List<TimelineItem> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 'memory', 'mem:' || ci.citation, e.created_ts, e.project, e.session_id, e.entry_type, e.title,
                       0, e.created_at
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND e.status = 'active' AND e.created_at > ?
                ORDER BY e.created_at LIMIT ?""")) {
            ps.setObject(1, after);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(timelineItem(rs));
                }
            }
        }
        return items;
    }

    /** The highest ingest sequence and the newest memory row's creation time. */
    public static Object[] marks(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT (SELECT coalesce(max(seq), 0) FROM events),
                       (SELECT coalesce(max(created_at), TIMESTAMP '1970-01-01') FROM entries)""");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Object[] { rs.getLong(1), rs.getObject(2, LocalDateTime.class) };
        }
    }

    /** A session's events in time order (then ingest order). */
    public static List<SessionEvent> sessionEvents(Connection c, String sessionId) throws SQLException {
        List<SessionEvent> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT e.event_id, e.seq, e.ts, e.event_type,
                       left(json_extract_string(e.payload, '$.prompt'), ?),
                       left(json_extract_string(e.payload, '$.last_assistant_message'), ?),
                       json_extract_string(e.payload, '$.tool_name'),
                       left(json_extract(e.payload, '$.tool_input')::VARCHAR, ?),
                       left(coalesce(json_extract_string(e.payload, '$.tool_response.stdout'),
                                     json_extract(e.payload, '$.tool_response')::VARCHAR), ?),
                       coalesce(o.failed, e.event_type = 'PostToolUseFailure'),
                       coalesce(json_extract_string(e.payload, '$.source'), json_extract_string(e.payload, '$.reason'),
                                json_extract_string(e.payload, '$.error'))
                FROM events e LEFT JOIN observations o ON o.observation_id = e.event_id
                WHERE e.session_id = ? ORDER BY e.ts, e.seq""")) {
            for (int i = 1; i <= 4; i++) {
                ps.setInt(i, MAX_EVENT_CHARS);
            }
            ps.setString(5, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new SessionEvent(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                            rs.getString(9), rs.getBoolean(10), rs.getString(11)));
                }
            }
        }
        return events;
    }

    /**
     * A session's verified memories, oldest first; or the memories {@code supersedes}
     * names when {@code sessionId} is null.
     */
    public static List<MemoryLine> sessionMemories(Connection c, String sessionId) throws SQLException {
        return memories(c, "e.session_id = ? ORDER BY e.created_ts, e.entry_id", sessionId);
    }

    /** The memories a memory superseded (merged into it). */
    public static List<MemoryLine> superseded(Connection c, String memoryId) throws SQLException {
        return memories(c, "e.superseded_by = ? ORDER BY e.created_ts, e.entry_id", memoryId);
    }

    /**
     * Verified memories whose title or body contains {@code text} (case-insensitive), in
     * a status, newest first: the hybrid index holds active memories only, so this is how
     * the search page lists superseded ones.
     */
    public static List<MemoryLine> containing(Connection c, String text, String status, String project, int limit)
            throws SQLException {
        List<MemoryLine> lines = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT e.entry_id, 'mem:' || ci.citation, e.entry_type, e.status, e.created_ts, e.title
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND e.status = ? AND (? IS NULL OR e.project = ?)
                  AND (e.title ILIKE '%' || ? || '%' OR e.body ILIKE '%' || ? || '%')
                ORDER BY e.created_ts DESC LIMIT ?""")) {
            ps.setString(1, status);
            ps.setString(2, project);
            ps.setString(3, project);
            ps.setString(4, text);
            ps.setString(5, text);
            ps.setInt(6, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.add(memoryLine(rs));
                }
            }
        }
        return lines;
    }

    /** Every task with its blockers and history, for the board. */
    public static List<TaskCard> tasks(Connection c, String project) throws SQLException {
        List<TaskCard> cards = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.entity_id, t.project, t.title, t.status, coalesce(t.current_json->>'priority', ''),
                       (SELECT list(b.entity_type || ': ' || b.title ORDER BY b.title)
                        FROM edges e JOIN entities b ON b.entity_id = e.dst_id
                        WHERE e.src_id = t.entity_id AND e.rel_type = 'blocked_by'),
                       (SELECT list(strftime(h.ts, '%Y-%m-%d %H:%M') || ' ' || h.event_type ORDER BY h.seq)
                        FROM task_events h WHERE h.entity_id = t.entity_id)
                FROM entities t WHERE t.entity_type = 'task' AND (? IS NULL OR t.project = ?)
                ORDER BY t.updated_at DESC, t.title LIMIT 2000""")) {
            ps.setString(1, project);
            ps.setString(2, project);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    cards.add(new TaskCard(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), strings(rs.getArray(6)), strings(rs.getArray(7))));
                }
            }
        }
        return cards;
    }

    /**
     * The {@code limit} sessions with the newest events (of a project, or all when null),
     * newest first: those among the last 5,000 events and the newest graduated ones.
     */
    public static List<SessionRow> recentSessions(Connection c, String project, int limit) throws SQLException {
        return sessionRows(c, """
                SELECT session_id FROM events
                WHERE seq IN (SELECT seq FROM events WHERE session_id IS NOT NULL AND (? IS NULL OR project = ?)
                              ORDER BY ts DESC, seq DESC LIMIT 5000)
                UNION
                (SELECT session_id FROM sessions WHERE (? IS NULL OR project = ?) ORDER BY started_at DESC LIMIT ?)""",
                limit, project, project, project, project, limit);
    }

    /** One session's row; empty when no event of it is stored. */
    public static java.util.Optional<SessionRow> sessionRow(Connection c, String sessionId) throws SQLException {
        return sessionRows(c, "SELECT ?", 1, sessionId).stream().findFirst();
    }

    /**
     * The newest {@code limit} events of a session that tell its story
     * ({@link #STORY_EVENTS}), newest first.
     */
    public static List<TimelineItem> storyEvents(Connection c, String sessionId, int limit) throws SQLException {
        List<TimelineItem> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 'event', event_id, ts, project, session_id, event_type, %s, seq
                FROM events WHERE session_id = ? AND event_type IN (%s)
                ORDER BY ts DESC, seq DESC LIMIT ?""".formatted(eventPreview(), storyTypes()))) {
            ps.setString(1, sessionId);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items.add(timelineItem(rs));
                }
            }
        }
        return items;
    }

    private static List<SessionRow> sessionRows(Connection c, String ids, int limit, Object... params)
            throws SQLException {
        List<SessionRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                """
                        WITH ids AS (%s)
                        SELECT ev.session_id, ev.project, ev.first_ts, ev.last_ts, ev.prompts, ev.tools, s.branch,
                               sm.citation, sm.body,
                               (SELECT list(k.entry_type || '=' || k.n ORDER BY k.n DESC, k.entry_type)
                                FROM (SELECT x.entry_type, count(*) AS n FROM entries x
                                      WHERE x.session_id = ev.session_id AND x.stage = 'verified' AND x.status = 'active'
                                      GROUP BY x.entry_type) k)
                        FROM (SELECT session_id, any_value(project) AS project, min(ts) AS first_ts, max(ts) AS last_ts,
                                     count(*) FILTER (WHERE event_type = 'UserPromptSubmit') AS prompts,
                                     count(*) FILTER (WHERE event_type IN ('PostToolUse', 'PostToolUseFailure')) AS tools
                              FROM events WHERE session_id IN (SELECT * FROM ids) GROUP BY session_id) ev
                        LEFT JOIN sessions s ON s.session_id = ev.session_id
                        LEFT JOIN (SELECT e.session_id, 'mem:' || ci.citation AS citation, e.body,
                                          row_number() OVER (PARTITION BY e.session_id ORDER BY e.created_ts DESC, e.entry_id) AS rn
                                   FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                                   WHERE e.entry_type = 'summary' AND e.stage = 'verified' AND e.status = 'active'
                                     AND e.session_id IN (SELECT * FROM ids)) sm
                               ON sm.session_id = ev.session_id AND sm.rn = 1
                        ORDER BY ev.last_ts DESC, ev.session_id LIMIT ?"""
                    .formatted(ids))) {
            int i = 1;
            for (Object p : params) {
                ps.setObject(i++, p);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Map<String, Long> kinds = new LinkedHashMap<>();
                    for (String kv : strings(rs.getArray(10))) {
                        int eq = kv.lastIndexOf('=');
                        kinds.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
                    }
                    rows.add(new SessionRow(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class),
                            rs.getObject(4, LocalDateTime.class), rs.getLong(5), rs.getLong(6), rs.getString(7),
                            rs.getString(8), rs.getString(9), kinds));
                }
            }
        }
        return rows;
    }

    private static String storyTypes() {
        return String.join(", ", STORY_EVENTS.stream().map(t -> "'" + t + "'").toList());
    }

    /** Verified memories created per day (UTC) over the last {@code days} days. */
    public static Map<LocalDate, Long> memoriesPerDay(Connection c, int days) throws SQLException {
        Map<LocalDate, Long> perDay = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT CAST(created_at AS DATE) AS day, count(*) FROM entries
                WHERE stage = 'verified' AND created_at >= CAST((now() AT TIME ZONE 'UTC') AS DATE) - ?::INTEGER
                GROUP BY day ORDER BY day""")) {
            ps.setInt(1, days - 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    perDay.put(rs.getObject(1, LocalDate.class), rs.getLong(2));
                }
            }
        }
        return perDay;
    }

    /** Events captured per day (UTC) over the last {@code days} days, oldest first. */
    public static Map<LocalDate, Long> eventsPerDay(Connection c, int days) throws SQLException {
        Map<LocalDate, Long> perDay = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT CAST(ts AS DATE) AS day, count(*) FROM events
                WHERE ts >= CAST((now() AT TIME ZONE 'UTC') AS DATE) - ?::INTEGER GROUP BY day ORDER BY day""")) {
            ps.setInt(1, days - 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    perDay.put(rs.getObject(1, LocalDate.class), rs.getLong(2));
                }
            }
        }
        return perDay;
    }

    /** The vector outbox by status ({@code pending}, {@code done}, {@code failed}). */
    public static Map<String, Long> embeddingProgress(Connection c) throws SQLException {
        Map<String, Long> progress = new LinkedHashMap<>();
        try (PreparedStatement ps = c
            .prepareStatement("SELECT status, count(*) FROM vector_outbox GROUP BY status ORDER BY status");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                progress.put(rs.getString(1), rs.getLong(2));
            }
        }
        return progress;
    }

    /** The newest rejects of ingest and of graduation, with their reasons. */
    public static List<Reject> rejects(Connection c, int limit) throws SQLException {
        List<Reject> rejects = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT * FROM (
                  (SELECT 'ingest' AS stage, spool_file || ':' || spool_line AS subject, reason, rejected_at AS happened
                   FROM event_rejects ORDER BY rejected_at DESC LIMIT ?)
                  UNION ALL
                  (SELECT stage, subject_id, reason, rejected_at FROM graduation_rejects
                   ORDER BY rejected_at DESC LIMIT ?))
                ORDER BY happened DESC LIMIT ?""")) {
            ps.setInt(1, limit);
            ps.setInt(2, limit);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rejects.add(new Reject(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getObject(4, LocalDateTime.class)));
                }
            }
        }
        return rejects;
    }

    private static List<MemoryLine> memories(Connection c, String where, String key) throws SQLException {
        List<MemoryLine> lines = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT e.entry_id, 'mem:' || ci.citation, e.entry_type, e.status, e.created_ts, e.title
                FROM entries e JOIN citations ci ON ci.memory_id = e.entry_id
                WHERE e.stage = 'verified' AND""" + " " + where + " LIMIT 500")) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.add(memoryLine(rs));
                }
            }
        }
        return lines;
    }

    private static MemoryLine memoryLine(ResultSet rs) throws SQLException {
        return new MemoryLine(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getObject(5, LocalDateTime.class), rs.getString(6));
    }

    /**
     * One line of what an event says: the prompt, the reply, else the tool and its
     * command.
     */
    private static String eventPreview() {
        return """
                left(regexp_replace(coalesce(json_extract_string(payload, '$.prompt'),
                  json_extract_string(payload, '$.last_assistant_message'),
                  json_extract_string(payload, '$.tool_name') || ' ' || coalesce(
                    json_extract_string(payload, '$.tool_input.command'),
                    json_extract_string(payload, '$.tool_input.file_path'), ''),
                  json_extract_string(payload, '$.source'), json_extract_string(payload, '$.reason'), ''),
                  '\\s+', ' ', 'g'), %d)""".formatted(PREVIEW_CHARS);
    }

    private static TimelineItem timelineItem(ResultSet rs) throws SQLException {
        return new TimelineItem(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class), rs.getString(4),
                rs.getString(5), rs.getString(6), rs.getString(7), rs.getLong(8));
    }

    private static List<String> strings(java.sql.Array array) throws SQLException {
        if (array == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Object o : (Object[]) array.getArray()) {
            out.add(String.valueOf(o));
        }
        return out;
    }

}
