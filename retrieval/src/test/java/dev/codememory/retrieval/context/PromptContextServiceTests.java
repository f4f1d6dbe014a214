package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.retrieval.query.QueryResult;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class PromptContextServiceTests {

    private static final LocalDateTime T = LocalDateTime.of(2024, 3, 1, 9, 0);

    private static QueryResult result(String kind, String summary, String snippet) {
        return new QueryResult("m1", "mem:abcdef", 0.9, kind, summary, List.of(), T, "s1", () -> snippet);
    }

    @Test
    void anExchangeIsIndexedByItsBestSentenceOtherKindsByTheirTitle() {
        assertThat(PromptContextService
            .hit(result("exchange", "Which database for invoices?", "Use PostgreSQL for invoices: we need row locks."))
            .summary()).isEqualTo("Use PostgreSQL for invoices: we need row locks.");
        assertThat(PromptContextService.hit(result("exchange", "Which database for invoices?", "")).summary())
            .isEqualTo("Which database for invoices?");
        assertThat(PromptContextService.hit(result("decision", "Use PostgreSQL for invoices", "we need row locks"))
            .summary()).isEqualTo("Use PostgreSQL for invoices");
    }

    @Test
    void theScoreIsClampedIntoTheUnitInterval() {
        QueryResult over = new QueryResult("m1", "mem:abcdef", 1.2, "fact", "x", List.of(), T, "s1");

        assertThat(PromptContextService.hit(over).score()).isEqualTo(1.0);
    }

}
