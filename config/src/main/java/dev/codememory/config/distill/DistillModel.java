package dev.codememory.config.distill;

/**
 * The developer's own model, asked one bounded question per session: the local
 * {@code claude} CLI in print mode or the Messages API with the user's key.
 */
public interface DistillModel {

    /**
     * Sends the request and returns the answer.
     * @throws DistillModelException when the model cannot be reached, refuses for now
     * (429, overloaded), does not answer in time, or answers with an error
     */
    DistillAnswer ask(DistillRequest request);

}
