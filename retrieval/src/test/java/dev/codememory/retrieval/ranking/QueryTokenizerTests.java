package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryTokenizerTests {

    @Test
    void lowerCasesSplitsOnNonLettersAndDropsStopWords() {
        assertThat(QueryTokenizer.tokenize("When did Caroline go to the LGBTQ support-group?"))
            .containsExactly("carolin", "go", "lgbtq", "support", "group");
    }

    @Test
    void stemsCommonSuffixesToOneTerm() {
        assertThat(QueryTokenizer.tokenize("painting paints painted paint")).containsOnly("paint");
        assertThat(QueryTokenizer.tokenize("hike hikes hiked hiking")).containsOnly("hik");
        assertThat(QueryTokenizer.tokenize("stories story")).containsOnly("story");
        assertThat(QueryTokenizer.tokenize("running ran")).containsExactly("run", "ran");
    }

    @Test
    void keepsUnicodeLettersAndDigitsUnstemmed() {
        assertThat(QueryTokenizer.tokenize("Café naïves 東京 2023, v2.1")).containsExactly("café", "naïves", "東京", "2023",
                "v2", "1");
    }

    /**
     * A tool's input and output are JSON source text: an escape is not part of the next
     * word.
     */
    @Test
    void anEscapeInJsonSourceTextSeparatesWords() {
        assertThat(QueryTokenizer.tokenize("{\"stdout\":\"port: 5001\\nhost: 0.0.0.0\\n\\tworkers 4\"}"))
            .containsExactly("stdout", "port", "5001", "host", "0", "0", "0", "0", "worker", "4");
        // an escaped backslash, then an escaped quote
        assertThat(QueryTokenizer.tokenize("c:\\\\users\\\"name\\\"")).containsExactly("c", "user", "nam");
    }

    @Test
    void aDevelopersShortFormsAreTheTermsOfTheirLongForms() {
        assertThat(QueryTokenizer.tokenize("repos repo repositories repository")).containsExactly("repository",
                "repository", "repository", "repository");
        assertThat(QueryTokenizer.tokenize("the config dirs"))
            .isEqualTo(QueryTokenizer.tokenize("configuration directories"));
        assertThat(QueryTokenizer.tokenize("db deps k8s"))
            .isEqualTo(QueryTokenizer.tokenize("databases dependency Kubernetes"));
        assertThat(QueryTokenizer.tokenize("app args")).containsExactly("app", "arg");
    }

    @Test
    void blankTextHasNoTerms() {
        assertThat(QueryTokenizer.tokenize("  ")).isEmpty();
        assertThat(QueryTokenizer.tokenize(null)).isEmpty();
    }

}
