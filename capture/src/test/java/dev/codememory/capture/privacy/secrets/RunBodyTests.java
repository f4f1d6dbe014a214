package dev.codememory.capture.privacy.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.json.Latin1View;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-made matchers of {@link TokenShapes} against the regular expressions they
 * stand in for.
 */
class RunBodyTests {

    @Test
    void aRunBodyMatchesWhatItsRegexMatches() {
        Random random = new Random(11);
        String alphabet = "aZ09fFgG_-+/=.~:?!@ é\u20ac";
        String[] glue = { ".", "-", "_", ":", "=", "eyJ", "Ag", "==" };
        int parsed = 0;
        for (String[] shape : TokenShapes.SHAPES) {
            RunBody run = RunBody.parse(shape[1]);
            if (run == null) {
                continue;
            }
            parsed++;
            Pattern pattern = Pattern.compile(shape[1]);
            for (int k = 0; k < 400; k++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(140);
                for (int i = 0; i < length; i++) {
                    int pick = random.nextInt(10);
                    if (pick == 0) {
                        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                    else if (pick == 1) {
                        text.append(glue[random.nextInt(glue.length)]);
                    }
                    else {
                        text.append((char) ((random.nextBoolean() ? 'a' : 'A')
                                + random.nextInt(random.nextBoolean() ? 6 : 26)));
                    }
                }
                String s = text.toString();
                Matcher m = pattern.matcher(s);
                int expected = m.lookingAt() ? m.end() : -1;
                assertThat(run.end(Latin1View.of(s), 0)).as("%s on %s", shape[1], s).isEqualTo(expected);
            }
        }
        assertThat(parsed).as("bodies matched without the regex engine").isGreaterThanOrEqualTo(100);
    }

    @Test
    void aRunBodyMatchesWhatItsRegexMatchesOnBodiesMadeForIt() {
        Random random = new Random(7);
        String[] bodies = { "[a-f]{2,4}-[0-9]{3}", "[A-Z]{3}[0-9]{2,}+\\.[a-z]*+", "ab[a-z0-9]{5,}={0,2}", "[0-9]{4}" };
        for (String body : bodies) {
            RunBody run = RunBody.parse(body);
            assertThat(run).as(body).isNotNull();
            Pattern pattern = Pattern.compile(body);
            for (int k = 0; k < 3000; k++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(16);
                for (int i = 0; i < length; i++) {
                    text.append("abcfAZ0129-.=xX".charAt(random.nextInt(15)));
                }
                Matcher m = pattern.matcher(text);
                int expected = m.lookingAt() ? m.end() : -1;
                assertThat(run.end(Latin1View.of(text.toString()), 0)).as("%s on %s", body, text).isEqualTo(expected);
            }
        }
    }

    @Test
    void bodiesThatAreNotOneRunAreLeftToTheRegexEngine() {
        for (String body : new String[] { "[a-f0-9]{32}(?:-\\d)?", "\\d-[A-Z0-9]{8,}+", "(?:pt|st)\\.[a-z]{40}",
                "[^a]{3}", "[a-z]{5,2}", "[\\w]{3}", "[z-a]{3}", "[a-z]{1,5}={0,2}[a-z]{3}", "[a-z]{2,}[0-9a-f]{4}" }) {
            assertThat(RunBody.parse(body)).as(body).isNull();
        }
    }

}
