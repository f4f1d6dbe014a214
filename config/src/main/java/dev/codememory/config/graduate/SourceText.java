package dev.codememory.config.graduate;

/**
 * The texts a quote can come from, one per field of a source event. Extractor and aligner
 * must agree on them:
 * <ul>
 * <li>{@code prompt}: the UserPromptSubmit event's {@code prompt} string;</li>
 * <li>{@code reply}: the turn's reply text (the Stop event's
 * {@code last_assistant_message}, or the transcript); the event id is the Stop
 * event's;</li>
 * <li>{@code tool_input} / {@code tool_response}: the PostToolUse value when it is a
 * string, else its compact JSON text exactly as stored in {@code events.payload}.</li>
 * </ul>
 */
public final class SourceText {

    public static final String PROMPT = "prompt";

    public static final String REPLY = "reply";

    public static final String TOOL_INPUT = "tool_input";

    public static final String TOOL_RESPONSE = "tool_response";

    private SourceText() {
    }

}
