package dev.codememory.readers.graduate;

import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.vector.VectorWork;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.Turn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The read side of the graduation stages: which work is pending, and loading it. */
public final class GraduationQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** Sessions with events the sessions table has not seen. */
    public static final String SESSIONS_TO_ASSEMBLE = """
            SELECT e.session_id FROM events e LEFT JOIN sessions s ON s.session_id = e.session_id
            WHERE e.session_id IS NOT NULL
            GROUP BY e.session_id, s.last_seq HAVING max(e.seq) > coalesce(s.last_seq, 0)
            ORDER BY min(e.seq)""";

    /** Sessions assembled since the extractor last ran on them. */
    public static final String SESSIONS_TO_EXTRACT = """
            SELECT session_id FROM sessions WHERE extracted_seq < last_seq ORDER BY first_seq""";

    private GraduationQueries() {
    }

    public static List<StoredEvent> sessionEvents(Connection c, String sessionId) throws SQLException {
        List<StoredEvent> events = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT event_id, seq, ts, event_type, session_id, project, payload::VARCHAR
                FROM events WHERE session_id = ? ORDER BY seq""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new StoredEvent(rs.getString(1), rs.getLong(2), rs.getObject(3, LocalDateTime.class),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)));
                }
            }
        }
        return events;
    }

    public static AssembledSession assembledSession(Connection c, String sessionId) throws SQLException {
        SessionInfo session;
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT session_id, project, started_at, ended_at, end_reason, branch, first_seq, last_seq,
                       prompt_count, tool_count FROM sessions WHERE session_id = ?""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no session " + sessionId);
                }
                session = new SessionInfo(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class),
                        rs.getObject(4, LocalDateTime.class), rs.getString(5), rs.getString(6), rs.getLong(7),
                        rs.getLong(8), rs.getInt(9), rs.getInt(10));
            }
        }
        List<Turn> turns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT turn_id, session_id, project, prompt_event_id, prompt_text, reply_event_id, reply_text,
                       reply_source, prompt_ts, reply_ts FROM turns WHERE session_id = ? ORDER BY prompt_ts, turn_id""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    turns.add(new Turn(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8),
                            rs.getObject(9, LocalDateTime.class), rs.getObject(10, LocalDateTime.class)));
                }
            }
        }
        List<Observation> observations = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT observation_id, session_id, project, tool, files::VARCHAR, command, failed, error_text,
                       duration_ms, ts, input_text, output_text FROM observations WHERE session_id = ?
                ORDER BY ts, observation_id""")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String> files = MAPPER.readValue(rs.getString(5), new TypeReference<List<String>>() { });
                    long duration = rs.getLong(9);
                    Long durationMs = rs.wasNull() ? null : duration;
                    observations.add(new Observation(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getString(4), files, rs.getString(6), rs.getBoolean(7), rs.getString(8), durationMs,
                            rs.getObject(10, LocalDateTime.class), rs.getString(11), rs.getString(12)));
                }
            }
        }
        return new AssembledSession(session, turns, observations);
    }

    /** Candidates validation has not decided on: not an entry, not linked as a duplicate, not rejected. */
    public static final String CANDIDATES_TO_VALIDATE = """
            SELECT k.candidate_id FROM candidates k
            WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.candidate_id = k.candidate_id)
              AND NOT EXISTS (SELECT 1 FROM edges d WHERE d.src_id = k.candidate_id AND d.rel_type = 'duplicate_of')
              AND NOT EXISTS (SELECT 1 FROM graduation_rejects r WHERE r.subject_id = k.candidate_id
                              AND r.stage = 'validate')
            ORDER BY k.ts, k.candidate_id""";

    /** Entries whose evidence has not been aligned yet. */
    public static final String ENTRIES_TO_ALIGN = """
            SELECT entry_id FROM entries WHERE stage = 'candidate' ORDER BY created_ts, entry_id""";

    /** The candidates whose ids are in the reader's key table, in its order. */
    public static List<Candidate> candidates(Connection c) throws SQLException {
        List<Candidate> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT k.candidate_id, k.kind, k.session_id, k.project, k.ts, k.title, k.body, k.task_json::VARCHAR,
                       k.quotes_json::VARCHAR, k.extractor
                FROM candidates k JOIN %s p ON p.key = k.candidate_id ORDER BY p.ord"""
                .formatted(PendingItemReader.KEYS_TABLE));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                items.add(new Candidate(rs.getString(1),
                        CandidateKind.valueOf(rs.getString(2).toUpperCase(Locale.ROOT)), rs.getString(3),
                        rs.getString(4), rs.getObject(5, LocalDateTime.class), rs.getString(6), rs.getString(7),
                        task(rs.getString(8)), quotes(rs.getString(9)), rs.getString(10)));
            }
        }
        return items;
    }

    /** The entries whose ids are in the reader's key table, in its order. */
    public static List<EntryDraft> entries(Connection c) throws SQLException {
        List<EntryDraft> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT e.entry_id, e.candidate_id, e.entry_type, e.project, e.session_id, e.created_ts, e.title,
                       e.body, e.task_json::VARCHAR, e.canonical_key, e.quotes_json::VARCHAR
                FROM entries e JOIN %s p ON p.key = e.entry_id ORDER BY p.ord"""
                .formatted(PendingItemReader.KEYS_TABLE));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                items.add(entry(rs));
            }
        }
        return items;
    }

    private static EntryDraft entry(ResultSet rs) throws SQLException {
        return new EntryDraft(rs.getString(1), rs.getString(2),
                CandidateKind.valueOf(rs.getString(3).toUpperCase(Locale.ROOT)), rs.getString(4), rs.getString(5),
                rs.getObject(6, LocalDateTime.class), rs.getString(7), rs.getString(8), task(rs.getString(9)),
                rs.getString(10), quotes(rs.getString(11)));
    }

    public static EntryDraft entry(Connection c, String entryId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                       task_json::VARCHAR, canonical_key, quotes_json::VARCHAR FROM entries WHERE entry_id = ?""")) {
            ps.setString(1, entryId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no entry " + entryId);
                }
                return entry(rs);
            }
        }
    }

    static TaskFields task(String json) {
        return json == null ? null : MAPPER.readValue(json, TaskFields.class);
    }

    static List<Quote> quotes(String json) {
        return MAPPER.readValue(json, new TypeReference<List<Quote>>() { });
    }

    /** Verified task and work entries the task stage has not handled. */
    public static final String TASK_ENTRIES_TO_RESOLVE = """
            SELECT e.entry_id FROM entries e
            WHERE e.entry_type IN ('task', 'work') AND e.stage = 'verified'
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.subject_id = e.entry_id AND m.stage = 'tasks')
            ORDER BY e.created_ts, e.entry_id""";

    /** Every stored task event, in the order it was appended. */
    public static List<GraphUpdate.TaskEventRow> taskEvents(Connection c) throws SQLException {
        List<GraphUpdate.TaskEventRow> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT dedupe_key, event_type, entity_id, payload::VARCHAR, ts, source_entry
                FROM task_events ORDER BY seq""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new GraphUpdate.TaskEventRow(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getObject(5, LocalDateTime.class), rs.getString(6)));
            }
        }
        return rows;
    }

    /** An active task entry and the task it speaks of (its {@code evidence_of} edge). */
    public record TaskEvidence(String taskId, String entryId, LocalDateTime ts) {
    }

    /** Every active task entry linked to its task. */
    public static List<TaskEvidence> taskEvidence(Connection c) throws SQLException {
        List<TaskEvidence> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT ed.dst_id, en.entry_id, en.created_ts FROM edges ed JOIN entries en ON en.entry_id = ed.src_id
                WHERE ed.rel_type = 'evidence_of' AND en.entry_type = 'task' AND en.status = 'active'
                ORDER BY en.created_ts, en.entry_id""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new TaskEvidence(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class)));
            }
        }
        return rows;
    }

    /** Verified claims the merge stage has not looked at (exchanges, observations, tasks and summaries never merge). */
    public static final String ENTRIES_TO_MERGE = """
            SELECT e.entry_id FROM entries e
            WHERE e.stage = 'verified' AND e.status = 'active'
              AND e.entry_type IN ('decision', 'preference', 'fact', 'insight')
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.subject_id = e.entry_id AND m.stage = 'merge')
            ORDER BY e.created_ts, e.entry_id""";

    /**
     * Older active verified entries of the same kind and project whose titles are close (Jaro-Winkler ≥ 0.8) or, when
     * {@code titlePrefix} is not empty, start with it.
     */
    public static List<EntryDraft> olderSimilar(Connection c, EntryDraft entry, String titlePrefix)
            throws SQLException {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT entry_id FROM entries
                WHERE entry_type = ? AND project = ? AND stage = 'verified' AND status = 'active' AND entry_id <> ?
                  AND (created_ts < ? OR (created_ts = ? AND entry_id < ?))
                  AND (jaro_winkler_similarity(lower(title), lower(?)) >= 0.8 OR (? <> '' AND starts_with(title, ?)))
                ORDER BY created_ts, entry_id LIMIT 20""")) {
            ps.setString(1, entry.kind().key());
            ps.setString(2, entry.project());
            ps.setString(3, entry.entryId());
            ps.setObject(4, entry.ts());
            ps.setObject(5, entry.ts());
            ps.setString(6, entry.entryId());
            ps.setString(7, entry.title());
            ps.setString(8, titlePrefix);
            ps.setString(9, titlePrefix);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        List<EntryDraft> entries = new ArrayList<>();
        for (String id : ids) {
            entries.add(entry(c, id));
        }
        return entries;
    }

    /** Pending vector work for the reader's key table: the outbox op joined with the memory's text and fields. */
    public static List<VectorWork> vectorWork(Connection c, String version) throws SQLException {
        List<VectorWork> items = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT o.memory_id, o.op, e.title, e.body, e.project, e.entry_type, e.status, e.created_ts
                FROM %s p JOIN vector_outbox o ON o.memory_id = p.key AND o.embedding_version = ?
                LEFT JOIN entries e ON e.entry_id = o.memory_id
                ORDER BY p.ord""".formatted(PendingItemReader.KEYS_TABLE))) {
            ps.setString(1, version);
            ResultSet rs = ps.executeQuery();
            while (rs.next()) {
                VectorWork.Op op = "delete".equals(rs.getString(2)) || rs.getString(3) == null
                        ? VectorWork.Op.DELETE : VectorWork.Op.UPSERT;
                items.add(op == VectorWork.Op.DELETE
                        ? new VectorWork(rs.getString(1), op, null, null, null, null, null)
                        : new VectorWork(rs.getString(1), op, embeddingText(rs.getString(3), rs.getString(4)),
                                rs.getString(5), rs.getString(6), rs.getString(7),
                                rs.getObject(8, LocalDateTime.class)));
            }
        }
        return items;
    }

    /** What is embedded for a memory: its title, then its body (the tokenizer truncates the rest). */
    public static String embeddingText(String title, String body) {
        String text = body.startsWith(title) ? body : title + "\n" + body;
        return text.length() > 4_000 ? text.substring(0, 4_000) : text;
    }
}
