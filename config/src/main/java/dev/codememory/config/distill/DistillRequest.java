package dev.codememory.config.distill;

import java.util.Objects;

/**
 * What is sent to the model for one session: exactly this and nothing else.
 *
 * @param system the instructions
 * @param user the session, as quoted material
 * @param estimatedInputTokens the size of both, estimated ({@code TokenEstimate})
 * @param maxOutputTokens the cap on the answer
 */
public record DistillRequest(String system, String user, long estimatedInputTokens, int maxOutputTokens) {

    public DistillRequest {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(user, "user");
    }

    /** The most this request can cost: its input and the whole output cap. */
    public long worstCaseTokens() {
        return estimatedInputTokens + maxOutputTokens;
    }

}
