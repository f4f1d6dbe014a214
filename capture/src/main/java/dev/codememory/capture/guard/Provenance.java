package dev.codememory.capture.guard;

import dev.codememory.config.graduate.SourceText;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the words of a quote came from: the user's prompt, Claude's reply, a tool call
 * Claude made, or what a tool returned (and which tool). Only the user's own words are
 * trusted; everything else passes the {@link ContextGate} before it is shown, and a
 * tool's output is shown only as a quotation labelled with its tool.
 *
 * @param origin who wrote the words
 * @param tool the tool's name for a tool call or its output ({@code Bash},
 * {@code WebFetch}, {@code mcp__server__tool}); null otherwise or when unknown
 */
public record Provenance(Origin origin, String tool) {

    /** Who wrote the words. */
    public enum Origin {

        /** The user's own prompt. */
        USER,
        /** Claude's reply. */
        CLAUDE,
        /** A tool call's input, written by Claude. */
        TOOL_CALL,
        /** What a tool returned: a web page, a file, command output, an MCP answer. */
        TOOL_OUTPUT

    }

    public Provenance {
        Objects.requireNonNull(origin, "origin");
    }

    /**
     * The provenance of a quote taken from {@code field} (one of {@link SourceText}'s
     * fields) of an event whose tool is {@code tool} (null for prompts and replies). An
     * unknown field is taken for tool output: what cannot be placed is not trusted.
     */
    public static Provenance of(String field, String tool) {
        if (SourceText.PROMPT.equals(field)) {
            return new Provenance(Origin.USER, null);
        }
        if (SourceText.REPLY.equals(field)) {
            return new Provenance(Origin.CLAUDE, null);
        }
        if (SourceText.TOOL_INPUT.equals(field)) {
            return new Provenance(Origin.TOOL_CALL, tool);
        }
        return new Provenance(Origin.TOOL_OUTPUT, tool);
    }

    /** Whether the words are the user's own (shown as they are). */
    public boolean trusted() {
        return origin == Origin.USER;
    }

    /**
     * The text as it may be shown: the user's words as they are, with what they quote
     * from elsewhere through the gate ({@link ContextGate#passUserText}); everything else
     * through the {@link ContextGate}.
     */
    public GatedText gate(String text) {
        return trusted() ? ContextGate.passUserText(text) : ContextGate.pass(text);
    }

    /**
     * A short label for the line that shows the quote: {@code the user's prompt},
     * {@code Claude's reply}, {@code Claude's Bash call}, {@code Bash output},
     * {@code WebFetch output}, {@code MCP tool github/get_issue output}.
     */
    public String label() {
        return switch (origin) {
            case USER -> "the user's prompt";
            case CLAUDE -> "Claude's reply";
            case TOOL_CALL -> "Claude's " + toolName() + " call";
            case TOOL_OUTPUT -> toolName() + " output";
        };
    }

    private String toolName() {
        if (tool == null || tool.isBlank()) {
            return "tool";
        }
        StringBuilder safe = new StringBuilder();
        for (int i = 0; i < tool.length() && safe.length() < 80; i++) {
            char c = tool.charAt(i);
            safe.append(c < 0x80 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.') ? c : '_');
        }
        String name = safe.toString();
        if (name.startsWith("mcp__")) {
            String[] parts = name.substring(5).split("__", 2);
            return "MCP tool " + (parts.length == 2 ? parts[0] + "/" + parts[1] : parts[0]);
        }
        return name.toLowerCase(Locale.ROOT).equals("task") || name.equals("Agent") ? name + " (subagent)" : name;
    }

}
