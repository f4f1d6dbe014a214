package dev.codememory.processors.validate;

import java.util.Objects;

/** The outcome of {@link CandidateValidator#validate}: a validated entry, or the reason the candidate was refused. */
public sealed interface Validation {

    /** The candidate holds its invariants; {@code entry} is what it becomes. */
    record Valid(ValidatedEntry entry) implements Validation {

        public Valid {
            Objects.requireNonNull(entry, "entry");
        }
    }

    /** The candidate breaks an invariant; {@code reason} says which, without quoting the candidate's text. */
    record Invalid(String reason) implements Validation {

        public Invalid {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
