package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.retrieval.ranking.PastQuestion.Kind;
import dev.codememory.retrieval.ranking.PastQuestion.Shape;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PastQuestionTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            why did we drop the Dockerfile?                                  | WHY      | NONE
            What was the reason for the rate limiter?                        | WHY      | NONE
            what caused the lock file error?                                 | WHY      | NONE
            how did we fix the submodule commit error?                       | FIX      | NONE
            What was the workaround for the flaky test?                      | FIX      | NONE
            what is left on the dashboard?                                   | STATUS   | NONE
            is the migration done yet?                                       | STATUS   | NONE
            which database did we decide on?                                 | DECISION | NONE
            how do we deploy the collector?                                  | HOWTO    | COMMAND
            which port does the collector listen on?                         | VALUE    | NUMBER
            what version of duckdb do we pin                                 | VALUE    | NUMBER
            what was the error when pip install failed?                      | VALUE    | ERROR
            where is the config file?                                        | VALUE    | PATH
            what is the staging endpoint?                                    | VALUE    | URL
            what flag turns off the schedule?                                | VALUE    | COMMAND
            what did we name the helper class?                               | VALUE    | CODE
            remind me what we talked about yesterday                         | OTHER    | NONE
            could you remind me why we moved the connector?                  | WHY      | NONE
            In the first review, how many nested repos did you find?         | VALUE    | NUMBER
            """)
    void aQuestionAboutTheWorkIsRecognisedWithWhatItAsksFor(String prompt, Kind kind, Shape shape) {
        assertThat(PastQuestion.of(prompt)).contains(new PastQuestion(kind, shape));
    }

    @ParameterizedTest
    @ValueSource(strings = { "can you add a retry to the uploader?", "Could you run the tests?",
            "should we split this class?", "please fix the build", "fix the failing test",
            "add a --dry-run flag to the importer", "what if we cached the index?", "why don't we use rsync?",
            "let's move on to the viewer", "the build fails with exit 1", "" })
    void aRequestForNewWorkIsNotAQuestionAboutThePast(String prompt) {
        assertThat(PastQuestion.of(prompt)).isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aPastedLogThatEndsWithAQuestionIsWorkNotAQuestion() {
        String log = "Traceback (most recent call last):\n" + "  File \"app.py\", line 3\n".repeat(20)
                + "what does this mean?";
        assertThat(PastQuestion.of(log)).isEmpty();
        assertThat(PastQuestion.of(null)).isEmpty();
    }

}
