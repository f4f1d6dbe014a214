package dev.codememory.retrieval.embed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EmbeddingTextsTests {

    private final EmbeddingTexts texts = new EmbeddingTexts(200);

    @Test
    void aShortExchangeIsEmbeddedWhole() {
        String body = "Why does the build fail?\n\nThe test needs Docker. Start it first.";

        assertThat(texts.embeddingText("exchange", "Why does the build fail?", body, "The test needs Docker."))
            .isEqualTo(body);
    }

    @Test
    void aLongExchangeIsThePromptAndTheReplySentencesThatAnswerIt() {
        String prompt = "Why does the checkout build fail on CI?";
        String reply = "I looked at the logs. " + "Some unrelated detail about formatting and whitespace. ".repeat(3)
                + "The checkout build fails on CI because the test container needs Docker, which the runner lacks. "
                + "I also renamed a variable in the formatter module for clarity while I was there.";
        String body = prompt + "\n\n" + reply;

        String text = texts.embeddingText("exchange", prompt, body, "I looked at the logs.");

        assertThat(text).isEqualTo(prompt + "\nI looked at the logs.\nThe checkout build fails on CI because the test"
                + " container needs Docker, which the runner lacks.");
        assertThat(text.length()).isLessThanOrEqualTo(200);
    }

    @Test
    void theBestAnsweringSentenceIsKeptEvenOverTheBudget() {
        String prompt = "Explain the retry policy of the billing job in detail please, with all the reasons. ".repeat(3)
            .strip();
        String reply = "Sure. The billing job retry policy backs off exponentially for the reasons you gave.";
        String body = prompt + "\n\n" + reply;

        assertThat(texts.embeddingText("exchange", "Explain the retry policy", body, "Sure."))
            .isEqualTo(prompt + "\nThe billing job retry policy backs off exponentially for the reasons you gave.");
    }

    @Test
    void adjacentChosenSentencesStayOnOneLineAndCodeIsLeftOut() {
        String prompt = "How is the cache invalidated?";
        String reply = "The cache is invalidated on every write. The writer calls evict after commit.\n```java\n"
                + "cache.evict(key); // ".repeat(10) + "\n```\n"
                + "Unrelated closing words follow here at some considerable length so that they never fit in what is left. "
                    .repeat(3);
        String body = prompt + "\n\n" + reply;

        assertThat(texts.embeddingText("exchange", prompt, body, "The cache is invalidated on every write."))
            .isEqualTo(prompt + "\nThe cache is invalidated on every write. The writer calls evict after commit.");
    }

    @Test
    void anExchangeWhoseReplyCannotBeFoundIsEmbeddedWhole() {
        String body = "Question?\n\n" + "A long answer sentence. ".repeat(20);

        assertThat(texts.embeddingText("exchange", "Question?", body, "Not in the body.")).isEqualTo(body);
        assertThat(texts.embeddingText("exchange", "Question?", body, null)).isEqualTo(body);
    }

    @Test
    void aTaskIsTheSameTextAtEveryStatus() {
        String pending = texts.embeddingText("task", "Create connectors directory",
                "Create connectors directory\nstatus: pending (Claude's to-do list)", null);
        String done = texts.embeddingText("task", "Create connectors directory",
                "Create connectors directory\nstatus: done (Claude's to-do list)", null);

        assertThat(pending).isEqualTo("Create connectors directory").isEqualTo(done);
        assertThat(texts.embeddingText("task", "Migrate the client", "TODO: migrate the client before May.", null))
            .isEqualTo("Migrate the client\nTODO: migrate the client before May.");
    }

    @Test
    void otherMemoriesAreTitleThenBodyCutAtFourThousandCharacters() {
        assertThat(texts.embeddingText("decision", "Use DuckDB", "Use DuckDB for analytics.", null))
            .isEqualTo("Use DuckDB for analytics.");
        assertThat(texts.embeddingText("work", "Committed: fix", "x".repeat(5000), null))
            .hasSize(EmbeddingTexts.WHOLE_MAX_CHARS)
            .startsWith("Committed: fix\nxx");
    }

}
