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

    /**
     * The events of each session whose id is in the reader's key table, one list per session in its order (each in
     * seq order): one query for a page of sessions instead of one per session.
     */
    public static List<List<StoredEvent>> sessionEvents(Connection c) throws SQLException {
        List<List<StoredEvent>> sessions = perKey(c);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT p.ord, e.event_id, e.seq, e.ts, e.event_type, e.session_id, e.project, e.payload::VARCHAR
                FROM events e JOIN %s p ON p.key = e.session_id ORDER BY p.ord, e.seq"""
                .formatted(PendingItemReader.KEYS_TABLE)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                sessions.get(rs.getInt(1)).add(new StoredEvent(rs.getString(2), rs.getLong(3),
                        rs.getObject(4, LocalDateTime.class), rs.getString(5), rs.getString(6), rs.getString(7),
                        rs.getString(8)));
            }
        }
        return sessions;
    }

    /** The assembled sessions whose ids are in the reader's key table, in its order. */
    public static List<AssembledSession> assembledSessions(Connection c) throws SQLException {
        List<SessionInfo> infos = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT p.key, s.session_id, s.project, s.started_at, s.ended_at, s.end_reason, s.branch, s.first_seq,
                       s.last_seq, s.prompt_count, s.tool_count
                FROM %s p LEFT JOIN sessions s ON s.session_id = p.key ORDER BY p.ord"""
                .formatted(PendingItemReader.KEYS_TABLE)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (rs.getString(2) == null) {
                    throw new SQLException("no session " + rs.getString(1));
                }
                infos.add(new SessionInfo(rs.getString(2), rs.getString(3), rs.getObject(4, LocalDateTime.class),
                        rs.getObject(5, LocalDateTime.class), rs.getString(6), rs.getString(7), rs.getLong(8),
                        rs.getLong(9), rs.getInt(10), rs.getInt(11)));
            }
        }
        List<List<Turn>> turns = perKey(c);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT p.ord, t.turn_id, t.session_id, t.project, t.prompt_event_id, t.prompt_text, t.reply_event_id,
                       t.reply_text, t.reply_source, t.prompt_ts, t.reply_ts
                FROM turns t JOIN %s p ON p.key = t.session_id ORDER BY p.ord, t.prompt_ts, t.turn_id"""
                .formatted(PendingItemReader.KEYS_TABLE)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                turns.get(rs.getInt(1)).add(new Turn(rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9),
                        rs.getObject(10, LocalDateTime.class), rs.getObject(11, LocalDateTime.class)));
            }
        }
        List<List<Observation>> observations = perKey(c);
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT p.ord, o.observation_id, o.session_id, o.project, o.tool, o.files::VARCHAR, o.command, o.failed,
                       o.error_text, o.duration_ms, o.ts, o.input_text, o.output_text
                FROM observations o JOIN %s p ON p.key = o.session_id ORDER BY p.ord, o.ts, o.observation_id"""
                .formatted(PendingItemReader.KEYS_TABLE)); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<String> files = MAPPER.readValue(rs.getString(6), new TypeReference<List<String>>() { });
                long duration = rs.getLong(10);
                Long durationMs = rs.wasNull() ? null : duration;
                observations.get(rs.getInt(1)).add(new Observation(rs.getString(2), rs.getString(3),
                        rs.getString(4), rs.getString(5), files, rs.getString(7), rs.getBoolean(8), rs.getString(9),
                        durationMs, rs.getObject(11, LocalDateTime.class), rs.getString(12), rs.getString(13)));
            }
        }
        List<AssembledSession> sessions = new ArrayList<>(infos.size());
        for (int i = 0; i < infos.size(); i++) {
            sessions.add(new AssembledSession(infos.get(i), turns.get(i), observations.get(i)));
        }
        return sessions;
    }

    /** An empty list for each key of the reader's key table, to fill by its {@code ord}. */
    private static <T> List<List<T>> perKey(Connection c) throws SQLException {
        List<List<T>> lists = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + PendingItemReader.KEYS_TABLE);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            for (int i = 0; i < rs.getInt(1); i++) {
                lists.add(new ArrayList<>());
            }
        }
        return lists;
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
