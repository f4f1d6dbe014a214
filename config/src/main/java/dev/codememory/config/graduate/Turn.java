package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A prompt paired with Claude's reply. {@code replyText} comes from the Stop event's
 * {@code last_assistant_message}, else from the session transcript; it is null while the
 * reply is unknown. Times are UTC.
 *
 * @param turnId deterministic: derived from the prompt event id
 * @param promptEventId the UserPromptSubmit event
 * @param replyEventId the Stop event that closed the turn, or null
 * @param replySource {@code stop}, {@code transcript} or null
 */
public record Turn(String turnId, String sessionId, String project, String promptEventId, String promptText,
        String replyEventId, String replyText, String replySource, LocalDateTime promptTs, LocalDateTime replyTs) {

    public Turn {
        Objects.requireNonNull(turnId, "turnId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(promptEventId, "promptEventId");
        Objects.requireNonNull(promptText, "promptText");
        Objects.requireNonNull(promptTs, "promptTs");
    }
}
