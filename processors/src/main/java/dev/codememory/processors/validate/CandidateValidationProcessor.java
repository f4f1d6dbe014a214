package dev.codememory.processors.validate;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.ValidationOutcome;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * L2: typed invariants, privacy re-check and canonical key; a failed candidate is kept
 * with its reason.
 */
public class CandidateValidationProcessor implements ItemProcessor<Candidate, ValidationOutcome> {

    private final CandidateValidator validator;

    public CandidateValidationProcessor(CandidateValidator validator) {
        this.validator = validator;
    }

    @Override
    public ValidationOutcome process(Candidate candidate) {
        return validator.validate(candidate);
    }

}
