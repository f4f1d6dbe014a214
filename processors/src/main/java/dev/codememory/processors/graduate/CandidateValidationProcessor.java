package dev.codememory.processors.graduate;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.processors.validate.CandidateValidator;
import dev.codememory.processors.validate.ValidatedEntry;
import dev.codememory.processors.validate.Validation;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/** L2: typed invariants, privacy re-check and canonical key; a failed candidate is kept with its reason. */
public class CandidateValidationProcessor implements ItemProcessor<Candidate, ValidationOutcome> {

    private final CandidateValidator validator;

    public CandidateValidationProcessor(CandidateValidator validator) {
        this.validator = validator;
    }

    @Override
    public ValidationOutcome process(Candidate candidate) {
        Validation validation = validator.validate(candidate);
        if (validation instanceof Validation.Valid valid) {
            ValidatedEntry v = valid.entry();
            return new ValidationOutcome.Accepted(new EntryDraft(v.entryId(), v.candidateId(), v.kind(), v.project(),
                    v.sessionId(), v.ts(), v.title(), v.body(), v.task(), v.canonicalKey(), v.quotes()));
        }
        return new ValidationOutcome.Rejected(candidate.candidateId(), ((Validation.Invalid) validation).reason());
    }
}
