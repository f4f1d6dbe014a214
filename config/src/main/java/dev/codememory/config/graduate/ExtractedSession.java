package dev.codememory.config.graduate;

import java.util.List;
import java.util.Objects;

/** The extractor's output for one session, up to {@code lastSeq}. */
public record ExtractedSession(String sessionId, long lastSeq, List<Candidate> candidates) {

    public ExtractedSession {
        Objects.requireNonNull(sessionId, "sessionId");
        candidates = List.copyOf(candidates);
    }
}
