package dev.codememory.processors.turns;

import dev.codememory.processors.shell.ErrorLines;

/**
 * How a tool call ended, read off its response when the hook gives no status. Claude Code
 * sends a Bash failure as a plain string starting {@code Error:} (the command's error
 * output, a timeout), but it also uses that form when the user refused or interrupted the
 * call, which says nothing about the command ({@link ErrorLines#refusal}). Stateless.
 */
public final class ToolOutcomes {

    private ToolOutcomes() {
    }

    /**
     * Whether a plain-string response reports a failure: it starts with {@code Error} and
     * is no refusal.
     */
    public static boolean failedText(String response) {
        return response != null && response.stripLeading().startsWith("Error") && !ErrorLines.refusal(response);
    }

}
