package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.Objects;

/** What is known of one session. {@code endedAt} is null until its SessionEnd arrives. */
public record SessionInfo(String sessionId, String project, LocalDateTime startedAt, LocalDateTime endedAt,
        String endReason, String branch, long firstSeq, long lastSeq, int promptCount, int toolCount) {

    public SessionInfo {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
