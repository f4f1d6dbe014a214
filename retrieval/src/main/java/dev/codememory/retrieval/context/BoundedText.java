package dev.codememory.retrieval.context;

import dev.codememory.config.text.TextCuts;

/**
 * A text that grows only by pieces that fit its {@link ContextBudget}: a piece is
 * appended whole or not at all, so the text is within both limits after every call. The
 * one place where the builders of this package truncate.
 */
final class BoundedText {

    /**
     * A shortened block keeps at least this many characters of its content, else it is
     * left out.
     */
    static final int MIN_SHORTENED_CONTENT = 80;

    private final ContextBudget budget;

    private final StringBuilder text = new StringBuilder();

    BoundedText(ContextBudget budget) {
        this.budget = budget;
    }

    int length() {
        return text.length();
    }

    /** The characters that can still be appended. */
    int room() {
        return budget.charLimit() - text.length();
    }

    /**
     * Appends {@code piece} when the result stays within the budget; returns whether it
     * did.
     */
    boolean append(String piece) {
        if (!budget.allows(text.length() + piece.length())) {
            return false;
        }
        text.append(piece);
        return true;
    }

    /**
     * Appends {@code head + content} whole when it fits and leaves {@code reserve}
     * characters free; else the head, the content {@linkplain TextCuts#shorten shortened}
     * to what is left, and a line saying it was cut and how to get it whole; else — when
     * less than {@value #MIN_SHORTENED_CONTENT} characters of content would remain —
     * nothing.
     * @return whether anything was appended
     */
    boolean appendShortened(String head, String content, String citation, int reserve) {
        int room = room() - Math.max(reserve, 0);
        if (head.length() + content.length() <= room) {
            return append(head + content);
        }
        String marker = ContextText.cutMarker(citation);
        int contentRoom = room - head.length() - marker.length();
        if (contentRoom < MIN_SHORTENED_CONTENT) {
            return false;
        }
        return append(head + TextCuts.shorten(content, contentRoom) + marker);
    }

    String text() {
        return text.toString();
    }

}
