package dev.codememory.readers.graduation;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.readers.pending.PendingItemReader;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Loading entries, which the align, task and consolidate stages all read, and parsing the
 * JSON shapes of quotes and task fields, which entries and candidates (validate) share.
 */
public final class EntryQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private EntryQueries() {
    }

    /**
     * The entries whose ids are in the reader's key table, in its order; the pending
     * query gives each entry's {@code created_ts} second
     * ({@link PendingItemReader#withinPage(String)}).
     */
    public static List<EntryDraft> entries(Connection c) throws SQLException {
        return Sql.list(c,
                """
                        SELECT e.entry_id, e.candidate_id, e.entry_type, e.project, e.session_id, e.created_ts, e.title,
                               e.body, e.task_json::VARCHAR, e.canonical_key, e.quotes_json::VARCHAR
                        FROM entries e JOIN %s p ON p.key = e.entry_id WHERE %s ORDER BY p.ord"""
                    .formatted(PendingItemReader.KEYS_TABLE, PendingItemReader.withinPage("e.created_ts")),
                EntryQueries::entry);
    }

    private static EntryDraft entry(ResultSet rs) throws SQLException {
        return new EntryDraft(rs.getString(1), rs.getString(2),
                CandidateKind.valueOf(rs.getString(3).toUpperCase(Locale.ROOT)), rs.getString(4), rs.getString(5),
                rs.getObject(6, LocalDateTime.class), rs.getString(7), rs.getString(8), task(rs.getString(9)),
                rs.getString(10), quotes(rs.getString(11)));
    }

    public static EntryDraft entry(Connection c, String entryId) throws SQLException {
        return Sql
            .first(c, """
                    SELECT entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                           task_json::VARCHAR, canonical_key, quotes_json::VARCHAR FROM entries WHERE entry_id = ?""",
                    EntryQueries::entry, entryId)
            .orElseThrow(() -> new SQLException("no entry " + entryId));
    }

    public static TaskFields task(String json) {
        return json == null ? null : MAPPER.readValue(json, TaskFields.class);
    }

    public static List<Quote> quotes(String json) {
        return MAPPER.readValue(json, new TypeReference<List<Quote>>() {
        });
    }

}
