package dev.codememory.processors.team;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.processors.privacy.Redactor;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShareableMemoryProcessorTests {

    private final ShareableMemoryProcessor processor = new ShareableMemoryProcessor(Redactor.defaults());

    @Test
    void sharesADecisionWithItsQuotes() {
        SharedMemory decision = memory("decision", "Use Flyway for migrations",
                new SharedQuote(0, "prompt", null, "let's use Flyway for the migrations"));

        assertThat(processor.process(decision)).isSameAs(decision);
    }

    @Test
    void neverSharesExchangesObservationsTasksOrSummaries() {
        for (String kind : List.of("exchange", "observation", "task", "summary")) {
            assertThat(processor.process(memory(kind, "what we talked about"))).as(kind).isNull();
        }
    }

    @Test
    void holdsBackAMemoryWithAPrivateOrSecretPart() {
        assertThat(processor.process(memory("fact", "The staging host is " + Redactor.PRIVATE_MARKER))).isNull();
        assertThat(processor.process(memory("fact", "Deploy key",
                new SharedQuote(0, "tool_response", "Bash", "token " + Redactor.SECRET_MARKER))))
            .isNull();
        assertThat(processor.process(memory("decision", "Use the AWS key AKIAIOSFODNN7EXAMPLE for uploads"))).isNull();
    }

    private static SharedMemory memory(String kind, String title, SharedQuote... quotes) {
        return new SharedMemory("m-1", "/work/shop", kind, title, title, LocalDateTime.of(2026, 11, 26, 10, 0),
                "abcdef", List.of(quotes));
    }

}
