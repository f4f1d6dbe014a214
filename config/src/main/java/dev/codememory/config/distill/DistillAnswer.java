package dev.codememory.config.distill;

import java.util.Objects;

/**
 * The model's answer: its text and what it cost, as the model reported it.
 */
public record DistillAnswer(String text, long inputTokens, long outputTokens) {

    public DistillAnswer {
        Objects.requireNonNull(text, "text");
    }

}
