package dev.codememory.config.graduate;

import java.util.List;
import java.util.Set;

/**
 * Active verified entries of the same kind and project, older than the given one, that
 * may say the same.
 */
public interface SimilarEntries {

    /**
     * @param superseded entries that are no longer active though the database may not say
     * so yet (superseded by entries before this one in the same chunk): left out
     */
    List<EntryDraft> olderCandidates(EntryDraft entry, Set<String> superseded);

    /**
     * Active verified entries of the same kind and project, newer than the given one,
     * that the merge stage has already handled and that may say the same, oldest first:
     * an entry graduated after newer ones (the newest sessions of a backlog go first, or
     * older sessions are imported later) is superseded by them as if it had come first.
     * @param superseded as for {@link #olderCandidates}
     */
    default List<EntryDraft> newerCandidates(EntryDraft entry, Set<String> superseded) {
        return List.of();
    }

}
