package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Candidate;
import java.util.List;

/**
 * L1 of the graduation pipeline: turns one slice of a session into candidates, each
 * resting on quotes from the slice's source texts (see
 * {@link dev.codememory.config.graduate.SourceText}). The rule-based extractor is the
 * default; a model-based one can take its place behind this interface.
 *
 * <p>
 * Implementations are thread-safe and deterministic: the same slice gives the same
 * candidates, in the same order, with the same ids.
 */
public interface Extractor {

    /** The candidates found in {@code slice}; empty when there are none. */
    List<Candidate> extract(SessionSlice slice);

    /**
     * Name and version, recorded with every candidate (e.g. {@code rules-v1}). Change it
     * when the output changes.
     */
    String name();

}
