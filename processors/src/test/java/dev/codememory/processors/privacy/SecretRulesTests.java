package dev.codememory.processors.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.text.Latin1View;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-made matchers of {@link SecretRules} against the regular expressions they stand in for. */
class SecretRulesTests {

    @Test
    void aRunBodyMatchesWhatItsRegexMatches() {
        Random random = new Random(11);
        String alphabet = "aZ09fFgG_-+/=.~:?!@ é\u20ac";
        int parsed = 0;
        for (String[] shape : SecretRules.SHAPES) {
            SecretRules.RunBody run = SecretRules.RunBody.parse(shape[1]);
            if (run == null) {
                continue;
            }
            parsed++;
            Pattern pattern = Pattern.compile(shape[1]);
            for (int k = 0; k < 400; k++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(140);
                for (int i = 0; i < length; i++) {
                    text.append(random.nextInt(8) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                            : (char) ((random.nextBoolean() ? 'a' : 'A') + random.nextInt(26)));
                }
                String s = text.toString();
                Matcher m = pattern.matcher(s);
                int expected = m.lookingAt() ? m.end() : -1;
                assertThat(run.end(Latin1View.of(s), 0)).as("%s on %s", shape[1], s).isEqualTo(expected);
            }
        }
        assertThat(parsed).as("bodies matched without the regex engine").isGreaterThanOrEqualTo(80);
    }

    @Test
    void bodiesThatAreNotOneRunAreLeftToTheRegexEngine() {
        for (String body : new String[] {"[a-f0-9]{32}(?:-\\d)?", "\\d-[A-Z0-9]{8,}+", "Ag[A-Za-z0-9_-]{50,}+",
            "[A-Za-z0-9+/]{32,}+={0,2}", "[^a]{3}", "[a-z]{5,2}", "[\\w]{3}", "[z-a]{3}", "[a-z]*+"}) {
            assertThat(SecretRules.RunBody.parse(body)).as(body).isNull();
        }
    }
}
