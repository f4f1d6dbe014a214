package dev.codememory.processors.topic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.processors.topic.SharedTopic.Source;
import java.time.LocalDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedTopicTests {

    private static final String TITLE = "Topic: V002__orders.sql, backfill, legacy (3 sessions since 2026-03-01)";

    private static final String BODY = """
            Decided (1 of 2):
            - Use Flyway for V002__orders.sql [mem:aaaaaa]
            Done:
            - a line that cites nothing
            - Completed: Write the legacy import [mem:tttttt]
            - Committed: Backfill V002__orders.sql [mem:bbbbbb]
            Still open:
            - Backfill the legacy rows (in progress) [mem:uuuuuu]""";

    private static final Source S1 = new Source("s1", LocalDateTime.parse("2026-03-02T09:00:00"));

    private static final Source S2 = new Source("s1", LocalDateTime.parse("2026-03-02T11:00:00"));

    @Test
    void keepsTheLinesOfTheMemoriesShownUnderTheirHeadingsWithoutTheirCounts() {
        SharedTopic.Copy copy = SharedTopic.of(TITLE, BODY, Map.of("mem:aaaaaa", S1, "mem:bbbbbb", S2), 4)
            .orElseThrow();

        assertThat(copy.body()).isEqualTo("""
                Decided:
                - Use Flyway for V002__orders.sql [mem:aaaaaa]
                Done:
                - Committed: Backfill V002__orders.sql [mem:bbbbbb]""");
        // a phrase: the kept line that names the most of the label's features; the
        // sessions and date are the kept lines'
        assertThat(copy.title()).isEqualTo("Topic: Committed: Backfill V002__orders.sql (1 session since 2026-03-02)");
        assertThat(copy.quotes()).containsExactly(0, 2);
        assertThat(copy.citations()).containsExactly("mem:aaaaaa", "mem:bbbbbb");
    }

    @Test
    void aLabelNoKeptLineNamesGivesWayToTheOldestKeptLine() {
        SharedTopic.Copy copy = SharedTopic
            .of("Topic: legacy, import (2 sessions since 2026-03-01)", BODY, Map.of("mem:aaaaaa", S2, "mem:bbbbbb", S1),
                    4)
            .orElseThrow();

        assertThat(copy.title()).isEqualTo("Topic: Committed: Backfill V002__orders.sql (1 session since 2026-03-02)");
    }

    @Test
    void aKeywordLabelIsPublishedAsThePhraseThatNamesItsKeywords() {
        String body = """
                Decided:
                - Use bucket4j for the rate limiter of the public API [mem:aaaaaa]
                Done:
                - Committed: Add RateLimitFilter [mem:bbbbbb]""";

        SharedTopic.Copy copy = SharedTopic
            .of("Topic: limiter, rate, decided (3 sessions since 2026-03-01)", body,
                    Map.of("mem:aaaaaa", S2, "mem:bbbbbb", S1), 2)
            .orElseThrow();

        assertThat(copy.title())
            .isEqualTo("Topic: Use bucket4j for the rate limiter of the public API (1 session since 2026-03-02)");
    }

    @Test
    void copiesNothingThatRestsOnFewerThanTwoMemoriesOrWhoseQuotesDoNotMatchItsLines() {
        assertThat(SharedTopic.of(TITLE, BODY, Map.of("mem:aaaaaa", S1), 4)).isEmpty();
        assertThat(SharedTopic.of(TITLE, BODY, Map.of(), 4)).isEmpty();
        assertThat(SharedTopic.of(TITLE, BODY, Map.of("mem:aaaaaa", S1, "mem:bbbbbb", S2), 3)).isEmpty();
        assertThat(SharedTopic.of(TITLE, "Done:\n- Use Flyway [mem:aaaaaa]\n- Backfill [mem:aaaaaa]",
                Map.of("mem:aaaaaa", S1), 1))
            .isEmpty();
    }

}
