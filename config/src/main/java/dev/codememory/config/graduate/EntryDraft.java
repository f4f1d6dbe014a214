package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/** L2: a validated candidate, typed and keyed, waiting for its evidence to be aligned. */
public record EntryDraft(String entryId, String candidateId, CandidateKind kind, String project, String sessionId,
        LocalDateTime ts, String title, String body, TaskFields task, String canonicalKey, List<Quote> quotes) {

    public EntryDraft {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(candidateId, "candidateId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(canonicalKey, "canonicalKey");
        quotes = List.copyOf(quotes);
    }
}
