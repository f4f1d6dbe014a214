package dev.codememory.processors.distill;

import java.util.List;

/**
 * A claim as the model wrote it, before proof.
 *
 * @param kind as written (checked by the proof)
 * @param text the claim
 * @param reason why, for a decision; may be empty
 * @param quotes what it rests on
 */
public record Claim(String kind, String text, String reason, List<ClaimQuote> quotes) {

    /**
     * A quote as the model wrote it.
     *
     * @param source the number of the source it names, 0 when none
     * @param text the excerpt
     */
    public record ClaimQuote(int source, String text) {
    }

}
