package dev.codememory.retrieval.citation;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * An event around a memory's evidence: a source event ({@code source}) or its neighbour
 * in the same session. {@code position} counts the session's events in time order from 1.
 * The texts are those quotes are taken from ({@code prompt}, {@code reply}, the tool's
 * input and response); {@code detail} is the payload's own word for events that have none
 * of them (a SessionStart's source, a SessionEnd's reason).
 */
public record ContextEvent(String eventId, String sessionId, long seq, long position, LocalDateTime ts,
        String eventType, boolean source, String prompt, String reply, String tool, String toolInput,
        String toolResponse, String detail) {

    public ContextEvent {
        Objects.requireNonNull(eventId, "eventId");
    }

    /**
     * Whether the event is part of the work: a prompt, a reply or a tool call (not a
     * session marker).
     */
    public boolean isWork() {
        return prompt != null || reply != null || tool != null;
    }

    /**
     * What the event says, uncut: the prompt, the reply, or the tool with its input and
     * response; else the payload's {@code detail}, else empty.
     */
    public String text() {
        if (prompt != null) {
            return prompt;
        }
        if (reply != null) {
            return reply;
        }
        if (tool != null) {
            return tool + (toolInput == null ? "" : " " + toolInput)
                    + (toolResponse == null ? "" : " → " + toolResponse);
        }
        return detail == null ? "" : detail;
    }
}
