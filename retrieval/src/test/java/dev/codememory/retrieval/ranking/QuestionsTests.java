package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionsTests {

    @Test
    void aTurnWhoseLastSentenceAsksIsAQuestion() {
        assertThat(Questions.asks("Which database do we use for invoices?")).isTrue();
        assertThat(Questions.asks("I tried Redis. It was too slow. Should we move to PostgreSQL?")).isTrue();
        assertThat(Questions.asks("Caroline: I've got lots of kids' books. What's a favorite book you remember? "))
            .isTrue();
        assertThat(Questions.asks("Want me to update the tests too?\n")).isTrue();
        assertThat(Questions.asks("Ready to merge？")).isTrue();
    }

    @Test
    void closingAsidesQuotesAndEmphasisDoNotHideTheQuestionMark() {
        assertThat(Questions.asks("What do you think of it? [shares a photo of a painted sunset]")).isTrue();
        assertThat(Questions.asks("Did you mean \"the staging one?\"")).isTrue();
        assertThat(Questions.asks("Is this the **right file?**")).isTrue();
        assertThat(Questions.asks("Is it this one? (see the diff above)")).isTrue();
    }

    @Test
    void statementsAndQuestionsFollowedByStatementsAreNot() {
        assertThat(Questions.asks("Use PostgreSQL: we need row locks.")).isFalse();
        assertThat(Questions.asks("Why Redis? Because the queue needs it.")).isFalse();
        assertThat(Questions.asks("Is it done? Yes, merged yesterday [shares a screenshot]")).isFalse();
        assertThat(Questions.asks("")).isFalse();
        assertThat(Questions.asks("   ")).isFalse();
        assertThat(Questions.asks(null)).isFalse();
    }

}
