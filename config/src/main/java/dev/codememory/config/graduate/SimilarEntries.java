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

}
