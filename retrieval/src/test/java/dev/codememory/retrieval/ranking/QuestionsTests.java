package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
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

    /**
     * The rule as it was first written, as regular expressions over the whole text: the
     * scan from the end must decide every text the same way.
     */
    @Test
    void readingFromTheEndDecidesAsTheExpressionsDo() {
        Pattern asides = Pattern.compile("(?:\\s*(?:\\[[^\\[\\]]*\\]|\\([^()]*\\)))+\\s*$");
        Pattern closers = Pattern.compile("[\\s\"'”’»*_`)\\]]+$");
        String alphabet = "ab?？.[]() \t\n\u000B\u00A0\"'”*_`»";
        Random random = new Random(41);
        int questions = 0;
        for (int n = 0; n < 200_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(14);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String s = closers.matcher(asides.matcher(text).replaceFirst("")).replaceFirst("");
            boolean expected = !text.toString().isBlank() && (s.endsWith("?") || s.endsWith("？"));
            assertThat(Questions.asks(text.toString())).as("%s", text).isEqualTo(expected);
            questions += expected ? 1 : 0;
        }
        assertThat(questions).isGreaterThan(10_000);
    }

}
