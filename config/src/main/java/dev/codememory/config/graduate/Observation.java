package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What one tool call did, from its PostToolUse (or PostToolUseFailure) event.
 *
 * @param observationId the event id
 * @param files files the call read or wrote (absolute paths as given)
 * @param command the shell command, for Bash
 * @param failed true when the tool reported an error or a non-zero exit
 * @param errorText the error output, when failed
 * @param durationMs null when the hook did not say
 * @param inputText the source text of field {@code tool_input}: see {@link SourceText}
 * @param outputText the source text of field {@code tool_response}: see
 * {@link SourceText}
 */
public record Observation(String observationId, String sessionId, String project, String tool, List<String> files,
        String command, boolean failed, String errorText, Long durationMs, LocalDateTime ts, String inputText,
        String outputText) {

    public Observation {
        Objects.requireNonNull(observationId, "observationId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(tool, "tool");
        files = List.copyOf(files);
        Objects.requireNonNull(ts, "ts");
    }
}
