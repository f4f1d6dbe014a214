package dev.codememory.retrieval.context;

import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Objects;

/**
 * One event of a session as the timeline (layer 2) shows it.
 *
 * @param time when it happened, UTC
 * @param role who produced it
 * @param preview its own text — the prompt, the reply, or the tool with its input; shown
 * on one line, cut to 200 characters
 * @param source true when the memory was recorded from this event
 * @param output for a tool call, what the tool returned (shown as a quotation, through
 * the gate); null otherwise
 */
public record TimelineLine(LocalDateTime time, Role role, String preview, boolean source, String output) {

    /** An event without tool output. */
    public TimelineLine(LocalDateTime time, Role role, String preview, boolean source) {
        this(time, role, preview, source, null);
    }

    public enum Role {

        USER, ASSISTANT, TOOL;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

    }

    public TimelineLine {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(preview, "preview");
    }
}
