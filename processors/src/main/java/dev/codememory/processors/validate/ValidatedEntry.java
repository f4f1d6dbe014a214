package dev.codememory.processors.validate;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * L2: a candidate that holds its invariants, not yet aligned with its evidence.
 *
 * @param entryId      deterministic: derived from kind, project and canonical key, so a repeat of the same claim
 *                     gets the same id
 * @param task         the corrected task fields when kind is TASK, else null
 * @param canonicalKey see {@link CandidateValidator#canonicalKey}
 * @param quotes       as the candidate gave them, 1 to 20
 * @param candidateId  the candidate it came from
 */
public record ValidatedEntry(String entryId, CandidateKind kind, String project, String sessionId, LocalDateTime ts,
        String title, String body, TaskFields task, String canonicalKey, List<Quote> quotes, String candidateId) {

    public ValidatedEntry {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        quotes = List.copyOf(quotes);
        Objects.requireNonNull(candidateId, "candidateId");
    }
}
