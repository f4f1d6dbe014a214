package dev.codememory.jobs.graduate;

import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.SimilarEntries;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.processors.consolidate.NearDuplicateProcessor;
import dev.codememory.readers.consolidate.NearDuplicateQueries;
import java.util.List;
import java.util.Set;

/**
 * The merge step's look-up of entries that may say the same, read from the database
 * ({@link NearDuplicateQueries}) under the title prefix of the entry's role.
 */
final class StoredSimilarEntries implements SimilarEntries {

    private final JobDatabase database;

    StoredSimilarEntries(JobDatabase database) {
        this.database = database;
    }

    @Override
    public List<EntryDraft> olderCandidates(EntryDraft entry, Set<String> superseded) {
        return database.read("look up similar entries",
                c -> NearDuplicateQueries.olderSimilar(c, entry, NearDuplicateProcessor.role(entry), superseded));
    }

    @Override
    public List<EntryDraft> newerCandidates(EntryDraft entry, Set<String> superseded) {
        return database.read("look up similar entries",
                c -> NearDuplicateQueries.newerSimilar(c, entry, NearDuplicateProcessor.role(entry), superseded));
    }

}
