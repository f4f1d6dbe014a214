package dev.codememory.config.graduate;

import java.util.Objects;

/**
 * What validation made of a candidate: an entry draft, or a rejection with its reason.
 */
public sealed interface ValidationOutcome {

    String candidateId();

    record Accepted(EntryDraft entry) implements ValidationOutcome {

        public Accepted {
            Objects.requireNonNull(entry, "entry");
        }

        @Override
        public String candidateId() {
            return entry.candidateId();
        }
    }

    record Rejected(String candidateId, String reason) implements ValidationOutcome {

        public Rejected {
            Objects.requireNonNull(candidateId, "candidateId");
            Objects.requireNonNull(reason, "reason");
        }
    }

}
