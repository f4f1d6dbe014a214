package dev.codememory.config.distill;

import java.util.Objects;

/**
 * One text of a finished session, as stored after capture's redaction: what may be sent
 * to the distiller, and where a claim's quote may be found.
 *
 * @param eventId the event the text belongs to
 * @param field {@code prompt} (the user's words), {@code reply} (Claude's words),
 * {@code tool_input} (Claude's tool call) or {@code tool_response} (the tool's output)
 * @param tool the tool's name for a tool text, else null
 * @param failed whether the tool call failed
 * @param text the text
 */
public record SessionText(String eventId, String field, String tool, boolean failed, String text) {

    public SessionText {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(field, "field");
        text = text == null ? "" : text;
    }

    /** Whether these are Claude's own words in the session (its reply). */
    public boolean isReply() {
        return "reply".equals(field);
    }

    /** Whether the text was written by a tool, not by the user or Claude. */
    public boolean isToolOutput() {
        return "tool_response".equals(field);
    }

}
