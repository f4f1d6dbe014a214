package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * L1: a claim the extractor found, with the quotes it rests on. Not yet trusted.
 *
 * @param candidateId deterministic: derived from kind, session and the quoted source
 * @param kind see {@link CandidateKind}
 * @param title one line, what the claim is about
 * @param body the claim in full
 * @param task task fields when kind is TASK, else null
 * @param quotes at least one
 * @param extractor which extractor produced it (name and version)
 */
public record Candidate(String candidateId, CandidateKind kind, String sessionId, String project, LocalDateTime ts,
        String title, String body, TaskFields task, List<Quote> quotes, String extractor) {

    public Candidate {
        Objects.requireNonNull(candidateId, "candidateId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        quotes = List.copyOf(quotes);
        Objects.requireNonNull(extractor, "extractor");
    }
}
