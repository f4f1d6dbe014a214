package dev.codememory.config.graduate;

import java.util.List;

/**
 * Active verified entries of the same kind and project, older than the given one, that
 * may say the same.
 */
public interface SimilarEntries {

    List<EntryDraft> olderCandidates(EntryDraft entry);

}
