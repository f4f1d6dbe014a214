package dev.codememory.capture.guard;

import java.util.Objects;

/**
 * A recorded text as it may be shown to Claude, and how many parts of it the
 * {@link ContextGate} withheld.
 *
 * @param text the text, each withheld part replaced by {@link ContextGate#MARKER}
 * @param withheld how many parts were withheld (a run of invisible or bidirectional
 * characters counts as one)
 */
public record GatedText(String text, int withheld) {

    public GatedText {
        Objects.requireNonNull(text, "text");
        if (withheld < 0) {
            throw new IllegalArgumentException("withheld must not be negative: " + withheld);
        }
    }

}
