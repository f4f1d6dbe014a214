package dev.codememory.readers.align;

import dev.codememory.readers.graduation.EntryQueries;

/**
 * The read side of the align stage ({@code alignEvidenceStep}): entries whose evidence is
 * not aligned yet. They load with {@link EntryQueries#entries}; their source texts come
 * from {@link SessionSourceTexts}.
 */
public final class AlignmentQueries {

    /** Entries whose evidence has not been aligned yet. */
    public static final String ENTRIES_TO_ALIGN = """
            SELECT entry_id, created_ts FROM entries WHERE stage = 'candidate' ORDER BY created_ts, entry_id""";

    private AlignmentQueries() {
    }

}
