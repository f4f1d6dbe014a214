package dev.codememory.writers.forget;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.json.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.duckdb.DuckDBConnection;

/**
 * The user's explicit erasure — the one exception to append-only events. In one
 * transaction it finds what a {@link Forgetting} covers, deletes it and everything
 * derived from it, and leaves a tombstone of keys (never text) in {@code forgotten} so
 * that ingest and graduation never bring any of it back:
 * <ul>
 * <li><b>events</b>: a session's, those before a moment, or those whose JSON holds the
 * phrase (case-insensitive); tombstoned by dedupe key (a session also by its id, so later
 * events of it are dropped too);</li>
 * <li><b>memories</b> ({@code entries}): the one named, those of the session, created
 * before the moment or whose title or body holds the phrase, and every one quoting a
 * forgotten event; with their candidates (and the candidates that were duplicates of
 * them), evidence spans, citations, edges, stage marks, rejects, injection items and task
 * events — a task left with no task event goes too; tombstoned by entry and candidate
 * id;</li>
 * <li><b>derived rows</b>: the turns and observations made of forgotten events (or
 * holding the phrase), and the sessions left with no events; a session summary that names
 * a forgotten memory is removed (not tombstoned), so the next graduation composes it
 * again from what remains;</li>
 * <li><b>vectors</b>: queued for deletion in the outbox in the same transaction (so a
 * crash before {@link #dropVectors} still removes them at the next embed step).</li>
 * </ul>
 * {@link #preview} finds and counts the same without changing anything.
 */
public class DuckDbForgetter {

    /** How much a forgetting covers. */
    public record Counts(long events, long sessions, long memories, long verifiedMemories, long candidates, long turns,
            long observations, long taskEvents, long tasks, long summariesToCompose) {

        public boolean isEmpty() {
            return events + sessions + memories + candidates + turns + observations + taskEvents + tasks
                    + summariesToCompose == 0;
        }
    }

    /** The counts and the ids of the memories whose vectors must go. */
    public record Outcome(Counts counts, List<String> memoryIds) {
    }

    private final Supplier<DuckDBConnection> connections;

    public DuckDbForgetter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    /** What {@link #forget} would remove; nothing changes. */
    public Outcome preview(Forgetting what) {
        return run(what, null);
    }

    /** Removes what {@code what} covers and tombstones it under {@code forgetId}. */
    public Outcome forget(Forgetting what, String forgetId) {
        return run(what, forgetId);
    }

    private Outcome run(Forgetting what, String forgetId) {
        try (DuckDBConnection c = connections.get()) {
            c.setAutoCommit(false);
            try {
                select(c, what);
                Counts counts = count(c);
                List<String> memoryIds = strings(c, "SELECT entry_id FROM temp.main.fg_entries UNION "
                        + "SELECT entry_id FROM temp.main.fg_summaries ORDER BY entry_id");
                if (forgetId != null) {
                    tombstone(c, what, forgetId);
                    delete(c, what);
                    c.commit();
                }
                else {
                    c.rollback();
                }
                return new Outcome(counts, memoryIds);
            }
            catch (SQLException | RuntimeException e) {
                Transactions.rollback(c, e);
                throw e;
            }
            finally {
                dropTemp(c);
            }
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot forget " + what.describe() + ": " + e.getMessage(), e);
        }
    }

    /** Fills the temp tables fg_events, fg_sessions, fg_entries and fg_candidates. */
    private static void select(Connection c, Forgetting what) throws SQLException {
        String phrase = what.kind() == Forgetting.Kind.MATCH ? what.value().toLowerCase(Locale.ROOT) : null;
        String eventCondition = switch (what.kind()) {
            case MEMORY -> "FALSE";
            case SESSION -> "session_id = ?";
            case BEFORE -> "ts < ?";
            case MATCH -> "contains(lower(payload::VARCHAR), ?)";
        };
        Sql.update(c,
                "CREATE OR REPLACE TEMP TABLE fg_events AS "
                        + "SELECT event_id, dedupe_key, session_id FROM events WHERE " + eventCondition,
                what.kind() == Forgetting.Kind.MEMORY ? NONE
                        : selector(what, phrase == null ? null : jsonEscaped(phrase)));
        // sessions: the one named, and every session none of whose events remain
        String session = what.kind() == Forgetting.Kind.SESSION ? what.value() : null;
        Sql.update(c, """
                CREATE OR REPLACE TEMP TABLE fg_sessions AS
                SELECT ?::VARCHAR AS session_id WHERE ? IS NOT NULL
                UNION
                SELECT s.session_id FROM sessions s
                WHERE EXISTS (SELECT 1 FROM temp.main.fg_events f WHERE f.session_id = s.session_id)
                  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.session_id
                                  AND e.event_id NOT IN (SELECT event_id FROM temp.main.fg_events))""", session,
                session);
        String entryCondition = switch (what.kind()) {
            case MEMORY -> "entry_id = ?";
            case SESSION -> "session_id = ?";
            case BEFORE -> "created_ts < ?";
            case MATCH -> "contains(lower(title || chr(10) || body), ?)";
        };
        Sql.update(c,
                "CREATE OR REPLACE TEMP TABLE fg_entries AS " + "SELECT entry_id FROM entries WHERE " + entryCondition
                        + """
                                 UNION SELECT entry_id FROM entries WHERE session_id IN (SELECT session_id FROM temp.main.fg_sessions)
                                 UNION SELECT DISTINCT x.entry_id FROM (
                                     SELECT entry_id, unnest(from_json(quotes_json, '[{"eventId":"VARCHAR"}]')) AS q FROM entries) x
                                 WHERE x.q.eventId IN (SELECT event_id FROM temp.main.fg_events)
                                 UNION SELECT entry_id FROM evidence_spans WHERE event_id IN (SELECT event_id FROM temp.main.fg_events)
                                """,
                selector(what, phrase));
        String candidateCondition = switch (what.kind()) {
            case MEMORY -> "FALSE";
            case SESSION -> "session_id = ?";
            case BEFORE -> "ts < ?";
            case MATCH -> "contains(lower(title || chr(10) || body), ?)";
        };
        Sql.update(c,
                "CREATE OR REPLACE TEMP TABLE fg_candidates AS " + "SELECT candidate_id FROM candidates WHERE "
                        + candidateCondition
                        + """
                                 UNION SELECT candidate_id FROM entries WHERE entry_id IN (SELECT entry_id FROM temp.main.fg_entries)
                                 UNION SELECT src_id FROM edges WHERE rel_type = 'duplicate_of'
                                       AND dst_id IN (SELECT entry_id FROM temp.main.fg_entries)
                                 UNION SELECT candidate_id FROM candidates
                                       WHERE session_id IN (SELECT session_id FROM temp.main.fg_sessions)
                                 UNION SELECT DISTINCT x.candidate_id FROM (
                                     SELECT candidate_id, unnest(from_json(quotes_json, '[{"eventId":"VARCHAR"}]')) AS q FROM candidates) x
                                 WHERE x.q.eventId IN (SELECT event_id FROM temp.main.fg_events)
                                """,
                what.kind() == Forgetting.Kind.MEMORY ? NONE : selector(what, phrase));
        // the memories those candidates became
        execute(c, """
                INSERT INTO temp.main.fg_entries SELECT entry_id FROM entries
                WHERE candidate_id IN (SELECT candidate_id FROM temp.main.fg_candidates)
                  AND entry_id NOT IN (SELECT entry_id FROM temp.main.fg_entries)""");
        // session summaries and topics are composed from memories alone: one that names a
        // forgotten memory, or is itself caught by the session, date or phrase, goes
        // without a tombstone, and the next graduation composes it again from the
        // memories that remain; only a summary or topic the user names is tombstoned
        Sql.update(c, """
                CREATE OR REPLACE TEMP TABLE fg_summaries AS
                SELECT DISTINCT e.entry_id, e.session_id, e.entry_type FROM entries e
                WHERE e.entry_type IN ('summary', 'topic') AND e.entry_id IS DISTINCT FROM ?
                  AND (e.entry_id IN (SELECT entry_id FROM temp.main.fg_entries)
                       OR EXISTS (SELECT 1 FROM edges d WHERE d.src_id = e.entry_id AND d.rel_type = 'summarizes'
                                  AND d.dst_id IN (SELECT entry_id FROM temp.main.fg_entries)))""",
                what.kind() == Forgetting.Kind.MEMORY ? what.value() : null);
        execute(c, "DELETE FROM temp.main.fg_entries WHERE entry_id IN (SELECT entry_id FROM temp.main.fg_summaries)");
        Sql.update(c, """
                CREATE OR REPLACE TEMP TABLE fg_turns AS SELECT turn_id FROM turns
                WHERE session_id IN (SELECT session_id FROM temp.main.fg_sessions)
                   OR prompt_event_id IN (SELECT event_id FROM temp.main.fg_events)
                   OR reply_event_id IN (SELECT event_id FROM temp.main.fg_events)
                   OR (? IS NOT NULL AND contains(lower(prompt_text || chr(10) || coalesce(reply_text, '')), ?))""",
                phrase, phrase);
        Sql.update(c, """
                CREATE OR REPLACE TEMP TABLE fg_observations AS SELECT observation_id FROM observations
                WHERE session_id IN (SELECT session_id FROM temp.main.fg_sessions)
                   OR observation_id IN (SELECT event_id FROM temp.main.fg_events)
                   OR (? IS NOT NULL AND contains(lower(coalesce(command, '') || chr(10) || coalesce(input_text, '')
                       || chr(10) || coalesce(output_text, '') || chr(10) || coalesce(error_text, '')), ?))""", phrase,
                phrase);
        execute(c, """
                CREATE OR REPLACE TEMP TABLE fg_tasks AS SELECT DISTINCT t.entity_id FROM task_events t
                WHERE t.source_entry IN (SELECT entry_id FROM temp.main.fg_entries)
                  AND NOT EXISTS (SELECT 1 FROM task_events o WHERE o.entity_id = t.entity_id
                                  AND (o.source_entry IS NULL
                                       OR o.source_entry NOT IN (SELECT entry_id FROM temp.main.fg_entries)))""");
    }

    private static final Object[] NONE = {};

    /** The parameter of the condition that selects what {@code what} names. */
    private static Object[] selector(Forgetting what, String phrase) {
        return switch (what.kind()) {
            case MEMORY, SESSION -> new Object[] { what.value() };
            case BEFORE -> new Object[] { Timestamp.valueOf(what.before()) };
            case MATCH -> new Object[] { phrase };
        };
    }

    private static Counts count(Connection c) throws SQLException {
        return Sql
            .first(c, """
                    SELECT (SELECT count(*) FROM temp.main.fg_events),
                           (SELECT count(DISTINCT session_id) FROM (
                                SELECT session_id FROM temp.main.fg_sessions
                                UNION SELECT session_id FROM temp.main.fg_events f WHERE f.session_id IS NOT NULL
                                  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = f.session_id
                                                  AND e.event_id NOT IN (SELECT event_id FROM temp.main.fg_events)))),
                           (SELECT count(*) FROM temp.main.fg_entries),
                           (SELECT count(*) FROM entries WHERE stage = 'verified'
                                AND entry_id IN (SELECT entry_id FROM temp.main.fg_entries)),
                           (SELECT count(*) FROM temp.main.fg_candidates),
                           (SELECT count(*) FROM temp.main.fg_turns),
                           (SELECT count(*) FROM temp.main.fg_observations),
                           (SELECT count(*) FROM task_events
                                WHERE source_entry IN (SELECT entry_id FROM temp.main.fg_entries)),
                           (SELECT count(*) FROM temp.main.fg_tasks),
                           (SELECT count(*) FROM temp.main.fg_summaries)""",
                    rs -> new Counts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10)))
            .orElseThrow();
    }

    private static void tombstone(Connection c, Forgetting what, String forgetId) throws SQLException {
        String session = what.kind() == Forgetting.Kind.SESSION ? what.value() : null;
        Sql.update(c, """
                INSERT INTO forgotten (kind, key, forget_id, forgotten_at)
                SELECT kind, key, ?, now() AT TIME ZONE 'UTC' FROM (
                    SELECT 'event' AS kind, dedupe_key AS key FROM temp.main.fg_events
                    UNION SELECT 'entry', entry_id FROM temp.main.fg_entries
                    UNION SELECT 'candidate', candidate_id FROM temp.main.fg_candidates
                    UNION SELECT 'session', ? WHERE ? IS NOT NULL)
                ON CONFLICT DO NOTHING""", forgetId, session, session);
    }

    private static void delete(Connection c, Forgetting what) throws SQLException {
        String entries = "(SELECT entry_id FROM temp.main.fg_entries"
                + " UNION SELECT entry_id FROM temp.main.fg_summaries)";
        String candidates = "(SELECT candidate_id FROM temp.main.fg_candidates)";
        String tasks = "(SELECT entity_id FROM temp.main.fg_tasks)";
        String events = "(SELECT event_id FROM temp.main.fg_events)";
        String sessions = "(SELECT session_id FROM temp.main.fg_sessions)";
        execute(c, "UPDATE vector_outbox SET op = 'delete', status = 'pending', attempts = 0, error = NULL,"
                + " updated_at = now() AT TIME ZONE 'UTC' WHERE memory_id IN " + entries);
        execute(c, "DELETE FROM citations WHERE memory_id IN " + entries);
        execute(c, "DELETE FROM evidence_spans WHERE entry_id IN " + entries + " OR event_id IN " + events);
        execute(c, "DELETE FROM edges WHERE src_id IN " + entries + " OR dst_id IN " + entries + " OR src_id IN "
                + candidates + " OR dst_id IN " + candidates + " OR src_id IN " + tasks + " OR dst_id IN " + tasks);
        execute(c,
                "DELETE FROM stage_marks WHERE subject_id IN " + entries + " OR subject_id IN " + sessions
                        + " OR (stage = 'summary' AND EXISTS (SELECT 1 FROM temp.main.fg_summaries s"
                        + " WHERE s.entry_type = 'summary'"
                        + " AND starts_with(stage_marks.subject_id, 'summary|' || s.session_id || '|')))");
        execute(c, "DELETE FROM graduation_rejects WHERE subject_id IN " + entries + " OR subject_id IN " + candidates);
        execute(c, "DELETE FROM session_continuity WHERE session_id IN " + sessions + " OR previous_session_id IN "
                + sessions);
        execute(c, "DELETE FROM task_events WHERE source_entry IN " + entries);
        execute(c, "DELETE FROM entity_aliases WHERE entity_id IN " + tasks);
        execute(c, "DELETE FROM entities WHERE entity_id IN " + tasks);
        execute(c, "DELETE FROM injection_items WHERE memory_id IN " + entries);
        execute(c, "DELETE FROM team_marks WHERE memory_id IN " + entries);
        if (what.kind() == Forgetting.Kind.SESSION) {
            Sql.update(c, "DELETE FROM injection_items WHERE injection_id IN "
                    + "(SELECT injection_id FROM injections WHERE session_id = ?)", what.value());
            Sql.update(c, "DELETE FROM injections WHERE session_id = ?", what.value());
        }
        // what the distiller proved about a session quotes its words: the proven claims
        // of a
        // session touched go (its memories are already being forgotten; a rebuild proves
        // claims again from the events left, so nothing forgotten returns from here)
        String phrase = what.kind() == Forgetting.Kind.MATCH ? jsonEscaped(what.value().toLowerCase(Locale.ROOT))
                : null;
        Sql.update(c,
                "UPDATE distill_answers SET claims_json = NULL WHERE session_id IN " + sessions
                        + " OR session_id IN (SELECT session_id FROM entries WHERE entry_id IN " + entries + ")"
                        + " OR (CAST(? AS VARCHAR) IS NOT NULL AND contains(lower(claims_json), ?))",
                phrase, phrase);
        execute(c, "DELETE FROM entries WHERE entry_id IN " + entries);
        execute(c, "DELETE FROM candidates WHERE candidate_id IN " + candidates);
        execute(c, "DELETE FROM turns WHERE turn_id IN (SELECT turn_id FROM temp.main.fg_turns)");
        execute(c, "DELETE FROM observations WHERE observation_id IN "
                + "(SELECT observation_id FROM temp.main.fg_observations)");
        execute(c, "DELETE FROM sessions WHERE session_id IN " + sessions);
        execute(c, "DELETE FROM events WHERE event_id IN " + events);
        if (what.kind() == Forgetting.Kind.MATCH) {
            Sql.update(c, "DELETE FROM event_rejects WHERE contains(lower(raw_text), ?)",
                    what.value().toLowerCase(Locale.ROOT));
        }
    }

    /**
     * Removes the vectors of forgotten memories from every DuckDB vector table (all
     * embedding versions), and their outbox rows for the versions whose index is in
     * DuckDB or was cleared by {@code storeVersion}'s store (the caller deletes them
     * there first). Returns how many vector rows went from DuckDB tables.
     */
    public long dropVectors(Collection<String> memoryIds, String storeVersion) {
        if (memoryIds.isEmpty()) {
            return 0;
        }
        return Transactions.inTransaction(connections, () -> "remove forgotten vectors", c -> {
            execute(c, "CREATE OR REPLACE TEMP TABLE fg_vectors (memory_id VARCHAR)");
            Sql.batch(c, "INSERT INTO temp.main.fg_vectors VALUES (?)", memoryIds, id -> new Object[] { id });
            long removed = 0;
            List<String> versions = new ArrayList<>();
            for (String table : strings(c, "SELECT table_name FROM information_schema.tables "
                    + "WHERE table_schema = 'main' AND table_name LIKE 'vectors\\_%' ESCAPE '\\' ORDER BY 1")) {
                try (Statement st = c.createStatement()) {
                    removed += st.executeUpdate("DELETE FROM \"" + table.replace("\"", "\"\"")
                            + "\" WHERE memory_id IN (SELECT memory_id FROM temp.main.fg_vectors)");
                }
                versions.add(table.substring("vectors_".length()));
            }
            if (storeVersion != null) {
                versions.add(storeVersion);
            }
            for (String version : versions) {
                Sql.update(c, "DELETE FROM vector_outbox WHERE embedding_version = ?"
                        + " AND memory_id IN (SELECT memory_id FROM temp.main.fg_vectors)", version);
            }
            execute(c, "DROP TABLE IF EXISTS temp.main.fg_vectors");
            return removed;
        });
    }

    /**
     * A phrase as it appears inside the stored event JSON (quotes, backslashes and
     * control characters escaped).
     */
    static String jsonEscaped(String phrase) {
        StringBuilder sb = new StringBuilder(phrase.length() + 8);
        Json.appendJacksonEscaped(phrase, sb);
        return sb.toString();
    }

    private static void dropTemp(Connection c) {
        for (String t : List.of("fg_events", "fg_sessions", "fg_entries", "fg_candidates", "fg_summaries", "fg_turns",
                "fg_observations", "fg_tasks")) {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS temp.main." + t);
            }
            catch (SQLException ignored) {
                // the connection is going away with them
            }
        }
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static List<String> strings(Connection c, String sql) throws SQLException {
        return Sql.list(c, sql, rs -> rs.getString(1));
    }

}
