package dev.codememory.config.text;

import dev.codememory.config.json.Latin1View;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextTests {

    @Test
    void isoInstantSpellsEveryInstantAsInstantToStringDoes() {
        Random random = new Random(11);
        long[] seconds = { 0, 1, 59, 60, 86_399, 86_400, 951_782_400L /* 2000-02-29 */,
                1_709_164_800L /* 2024-02-29 */, 4_107_542_399L /* 2100-02-28T23:59:59 */, 4_107_542_400L,
                253_402_300_799L /* 9999-12-31T23:59:59 */, 253_402_300_800L, -1, -86_401, 1_798_880_401L };
        int[] nanos = { 0, 1, 999_999_999, 1_000_000, 120_000_000, 123_456_000, 100_000, 123_456_789, 500 };
        for (long s : seconds) {
            for (int n : nanos) {
                Instant instant = Instant.ofEpochSecond(s, n);
                assertThat(IsoInstant.format(instant)).isEqualTo(instant.toString());
            }
        }
        for (int k = 0; k < 20_000; k++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong() % 300_000_000_000L,
                    random.nextInt(4) == 0 ? random.nextInt(1000) * 1_000_000 : random.nextInt(1_000_000_000));
            assertThat(IsoInstant.format(instant)).isEqualTo(instant.toString());
        }
        Instant now = Instant.now();
        assertThat(IsoInstant.format(now)).isEqualTo(now.toString());
    }

    @Test
    void latin1ViewHasOneByteForEveryChar() {
        assertThat(Latin1View.of("abc\u00e9\u00ff")).containsExactly('a', 'b', 'c', 0xe9, 0xff);
        // chars above U+00FF, a surrogate pair among them, become '?' one for one
        assertThat(Latin1View.of("a\u20ac\ud83d\ude00b")).containsExactly('a', '?', '?', '?', 'b');
        assertThat(Latin1View.of("\ud83d")).containsExactly('?');
        assertThat(Latin1View.of("")).isEmpty();
    }

    @Test
    void latin1ViewMatchesItsDefinitionWithSurrogatesAnywhere() {
        Random random = new Random(11);
        String alphabet = "ab?\u00e9\u00ff\u20ac\u2192x";
        for (int k = 0; k < 20_000; k++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(24);
            for (int i = 0; i < length; i++) {
                switch (random.nextInt(8)) {
                    case 0, 1 -> s.append("\ud83d\ude00"); // a pair
                    case 2 -> s.append('\ud83d'); // lone high
                    case 3 -> s.append('\ude00'); // lone low
                    default -> s.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String text = s.toString();
            byte[] view = Latin1View.of(text);
            assertThat(view).hasSize(text.length());
            for (int i = 0; i < view.length; i++) {
                char c = text.charAt(i);
                assertThat(view[i]).as("%s at %d", text, i).isEqualTo(c <= 0xFF ? (byte) c : (byte) '?');
            }
        }
    }

}
