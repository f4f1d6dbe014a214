package dev.codememory.readers.consolidate;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.readers.graduation.EntryQueries;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The read side of the consolidate stage ({@code mergeDuplicatesStep}): the claims it has
 * not looked at (loaded with {@link EntryQueries#entries}), and the older entries each
 * one might repeat.
 */
public final class NearDuplicateQueries {

    /**
     * Verified claims the merge stage has not looked at (exchanges, observations, tasks
     * and summaries never merge).
     */
    public static final String ENTRIES_TO_MERGE = """
            SELECT e.entry_id, e.created_ts FROM entries e
            WHERE e.stage = 'verified' AND e.status = 'active'
              AND e.entry_type IN ('decision', 'preference', 'fact', 'insight')
              AND NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.subject_id = e.entry_id AND m.stage = 'merge')
            ORDER BY e.created_ts, e.entry_id""";

    private NearDuplicateQueries() {
    }

    /** How many older entries an entry is compared with, the oldest first. */
    public static final int LIMIT = 20;

    /**
     * The {@value #LIMIT} oldest older active verified entries of the same kind and
     * project whose titles are close (Jaro-Winkler ≥ 0.8) or, when {@code titlePrefix} is
     * not empty, start with it — leaving out {@code superseded}, which the table may
     * still show active: it reads as many more as could be left out.
     */
    public static List<EntryDraft> olderSimilar(Connection c, EntryDraft entry, String titlePrefix,
            Set<String> superseded) throws SQLException {
        return similar(c, entry, titlePrefix, superseded, "created_ts < ? OR (created_ts = ? AND entry_id < ?)");
    }

    /**
     * As {@link #olderSimilar}, of the newer entries the merge stage has handled: the
     * entries that would have superseded {@code entry} had it been handled before them.
     */
    public static List<EntryDraft> newerSimilar(Connection c, EntryDraft entry, String titlePrefix,
            Set<String> superseded) throws SQLException {
        return similar(c, entry, titlePrefix, superseded,
                """
                        (created_ts > ? OR (created_ts = ? AND entry_id > ?))
                        AND EXISTS (SELECT 1 FROM stage_marks m WHERE m.subject_id = entries.entry_id AND m.stage = 'merge')""");
    }

    private static List<EntryDraft> similar(Connection c, EntryDraft entry, String titlePrefix, Set<String> superseded,
            String order) throws SQLException {
        List<String> ids = Sql.list(c, """
                SELECT entry_id FROM entries
                WHERE entry_type = ? AND project = ? AND stage = 'verified' AND status = 'active' AND entry_id <> ?
                  AND (%s)
                  AND (jaro_winkler_similarity(lower(title), lower(?)) >= 0.8 OR (? <> '' AND starts_with(title, ?)))
                ORDER BY created_ts, entry_id LIMIT ?""".formatted(order), rs -> rs.getString(1), entry.kind().key(),
                entry.project(), entry.entryId(), entry.ts(), entry.ts(), entry.entryId(), entry.title(), titlePrefix,
                titlePrefix, LIMIT + superseded.size())
            .stream()
            .filter(id -> !superseded.contains(id))
            .limit(LIMIT)
            .toList();
        List<EntryDraft> entries = new ArrayList<>();
        for (String id : ids) {
            entries.add(EntryQueries.entry(c, id));
        }
        return entries;
    }

}
