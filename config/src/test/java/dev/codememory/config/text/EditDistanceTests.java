package dev.codememory.config.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EditDistanceTests {

    @Test
    void countsInsertionsDeletionsAndSubstitutions() {
        assertThat(EditDistance.levenshtein("kitten", "sitting")).isEqualTo(3);
        assertThat(EditDistance.levenshtein("flaw", "lawn")).isEqualTo(2);
        assertThat(EditDistance.levenshtein("", "abc")).isEqualTo(3);
        assertThat(EditDistance.levenshtein("abc", "")).isEqualTo(3);
        assertThat(EditDistance.levenshtein("same", "same")).isZero();
    }

    @Test
    void comparesCodePointsNotUtf16Units() {
        // one emoji is two UTF-16 units but one code point: one substitution, not two
        assertThat(EditDistance.levenshtein("a😀b", "a😃b")).isEqualTo(1);
        assertThat(EditDistance.levenshtein("😀", "")).isEqualTo(1);
    }

    @Test
    void measuresAgainstARangeOfTheSecondText() {
        int[] pattern = "fix".codePoints().toArray();
        int[] text = "we fox the bug".codePoints().toArray();
        assertThat(EditDistance.levenshtein(pattern, text, 3, 6)).isEqualTo(1);
        assertThat(EditDistance.levenshtein(pattern, text, 3, 3)).isEqualTo(3);
    }

}
