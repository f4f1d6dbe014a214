package dev.codememory.jobs.mcp;

import dev.codememory.capture.guard.ContextGate;

/**
 * How the MCP tools write their answers: one compact text block within a token budget
 * (about four characters a token), each item on one line, a memory's words through the
 * {@link ContextGate} unless they are the user's own.
 */
final class ToolText {

    private ToolText() {
    }

    /**
     * The {@code max_tokens} asked for, from the catalog's minimum to {@code most} (the
     * default).
     */
    static int budget(ToolArguments args, int most) {
        return args.integer("max_tokens", most, ToolCatalog.MIN_TOKENS, most);
    }

    /** A memory's words as they may be shown: a preference's are the user's own. */
    static String gated(String kind, String text) {
        return text == null ? "" : "preference".equals(kind) ? text : ContextGate.pass(text).text();
    }

    /**
     * The text on one line, its whitespace collapsed, cut with an ellipsis to {@code max}
     * characters.
     */
    static String oneLine(String text, int max) {
        String s = text == null ? "" : text.replaceAll("\\s+", " ").strip();
        return s.length() > max ? s.substring(0, max - 1) + "…" : s;
    }

    /** Text cut to a token budget at a line boundary, saying so when it cuts. */
    static final class Budgeted {

        private final int maxChars;

        private final StringBuilder text = new StringBuilder();

        private boolean cut;

        Budgeted(int tokens) {
            this.maxChars = tokens * 4;
        }

        void line(String line) {
            if (cut) {
                return;
            }
            if (text.length() + line.length() + 1 > maxChars - 80) {
                cut = true;
                text.append("… (cut to the budget of ").append(maxChars / 4).append(" tokens)\n");
                return;
            }
            text.append(line).append('\n');
        }

        void block(String block) {
            for (String line : block.split("\n", -1)) {
                line(line);
            }
            line("");
        }

        String text() {
            return text.toString().stripTrailing();
        }

    }

}
