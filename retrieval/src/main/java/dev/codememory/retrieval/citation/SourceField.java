package dev.codememory.retrieval.citation;

import java.time.LocalDateTime;

/**
 * One field of a source event as recorded: a prompt, a reply, or a tool call's input or
 * response (JSON text as the hook carried it).
 *
 * @param field {@code prompt}, {@code reply}, {@code tool_input} or
 * {@code tool_response}, as in {@code evidence_spans.field}
 * @param tool the tool's name for a tool field, else null
 */
public record SourceField(String eventId, LocalDateTime ts, String field, String tool, String text) {
}
