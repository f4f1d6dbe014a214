package dev.codememory.processors.team;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.team.SharedMemory.SharedQuote;
import dev.codememory.config.team.SharedMemory;
import dev.codememory.config.topic.TopicMaterial.Member;
import dev.codememory.config.topic.TopicMaterial;
import dev.codememory.config.topic.TopicMemory;
import dev.codememory.processors.topic.TopicConsolidator;
import java.time.LocalDateTime;
import java.util.ArrayList;
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

    @Test
    void sharesATopicsDecisionAndCommitLinesWithTheirQuotesButNotItsToDoItems() {
        Topic topic = topic(
                member("task", "s0", "2026-03-01T16:00", "Backfill the status column after V002__orders.sql",
                        "in_progress"),
                member("decision", "s1", "2026-03-02T09:00", "Use Flyway for V002__orders.sql", ""),
                member("work", "s2", "2026-03-03T10:00", "Add the orders table migration V002__orders.sql", ""),
                member("task", "s2", "2026-03-03T10:05", "Backfill the legacy rows of V002__orders.sql", "pending"));
        assertThat(topic.local().title()).isEqualTo("Topic: V002__orders.sql, backfill (3 sessions since 2026-03-01)");
        assertThat(topic.local().body()).contains("Still open:", "Backfill the legacy rows");

        SharedMemory shared = processor.process(topic.shared());

        assertThat(shared.memoryId()).isEqualTo(topic.local().entryId());
        assertThat(shared.kind()).isEqualTo("topic");
        assertThat(shared.title()).isEqualTo("Topic: Use Flyway for V002__orders.sql (2 sessions since 2026-03-02)");
        assertThat(shared.body()).isEqualTo("""
                Decided:
                - Use Flyway for V002__orders.sql [mem:cit002]
                Done:
                - Committed: Add the orders table migration V002__orders.sql [mem:cit003]""");
        assertThat(shared.quotes()).containsExactly(
                new SharedQuote(0, "prompt", null, "quote of Use Flyway for V002__orders.sql"),
                new SharedQuote(1, "prompt", null, "quote of Add the orders table migration V002__orders.sql"));
        assertThat(shared.cites()).extracting(SharedMemory::memoryId).containsExactly("m2", "m3");
        assertThat(shared.composed()).isTrue();
    }

    @Test
    void doesNotShareATopicThatRestsOnToDoItemsOrOnOneSharedMemory() {
        Topic tasks = topic(member("task", "s1", "2026-03-02T09:00", "Write the V002__orders.sql migration", "done"),
                member("task", "s2", "2026-03-03T09:00", "Backfill the V002__orders.sql rows", "in_progress"),
                member("task", "s2", "2026-03-03T09:30", "Index V002__orders.sql by customer", "pending"));
        assertThat(tasks.local().body()).contains("Completed: Write the V002__orders.sql migration");

        assertThat(processor.process(tasks.shared())).isNull();

        Topic oneDecision = topic(member("decision", "s1", "2026-03-02T09:00", "Use Flyway for V002__orders.sql", ""),
                member("task", "s2", "2026-03-03T09:00", "Backfill the V002__orders.sql rows", "in_progress"),
                member("task", "s2", "2026-03-03T09:30", "Index V002__orders.sql by customer", "pending"));

        assertThat(processor.process(oneDecision.shared())).isNull();
    }

    @Test
    void aTopicLineWhoseMemoryIsPrivateGoneOrNotPublishedHereIsLeftOut() {
        Member decision = member("decision", "s1", "2026-03-02T09:00", "Use Flyway for V002__orders.sql", "");
        Member add = member("work", "s1", "2026-03-02T10:00", "Add the orders table migration V002__orders.sql", "");
        Member index = member("work", "s2", "2026-03-03T10:00", "Index V002__orders.sql by customer", "");
        Topic topic = topic(decision, add, index);

        // the decision's title is clean, its body is not: the memory is not shared, nor
        // its line
        SharedMemory privateDecision = cited(decision, "Use Flyway " + Redactor.PRIVATE_MARKER);
        SharedMemory shared = processor.process(topic.with(privateDecision, cited(add), cited(index)));
        assertThat(shared.body()).doesNotContain("Flyway").contains("[mem:cit002]", "[mem:cit003]");
        assertThat(shared.quotes()).extracting(SharedQuote::text)
            .containsExactly("quote of Index V002__orders.sql by customer",
                    "quote of Add the orders table migration V002__orders.sql");

        // a cited memory no longer verified and active is not among those read
        assertThat(processor.process(topic.with(cited(decision), cited(add))).body()).doesNotContain("Index")
            .contains("[mem:cit001]", "[mem:cit002]");
        assertThat(processor.process(topic.with(cited(decision)))).isNull();

        // a home that publishes decisions and topics only shares no commit line
        assertThat(
                new ShareableMemoryProcessor(Redactor.defaults(), List.of("decision", "topic")).process(topic.shared()))
            .isNull();
        assertThat(
                new ShareableMemoryProcessor(Redactor.defaults(), List.of("decision", "work")).process(topic.shared()))
            .as("topics are not published here")
            .isNull();
    }

    /** A consolidated topic, as publish reads it: with the memories it cites. */
    private record Topic(TopicMemory local, List<Member> members) {

        SharedMemory shared() {
            return with(members.stream().map(ShareableMemoryProcessorTests::cited).toArray(SharedMemory[]::new));
        }

        SharedMemory with(SharedMemory... cites) {
            List<SharedQuote> quotes = new ArrayList<>();
            for (Quote q : local.quotes()) {
                quotes.add(new SharedQuote(quotes.size(), q.field(), null, q.text()));
            }
            return new SharedMemory(local.entryId(), local.project(), "topic", local.title(), local.body(), local.ts(),
                    "topic1", quotes, local.sessionId(), List.of(cites));
        }
    }

    private Topic topic(Member... members) {
        List<TopicMemory> topics = new TopicConsolidator()
            .consolidate(new TopicMaterial("/work/shop", "mark", List.of(members), List.of()))
            .topics();
        assertThat(topics).hasSize(1);
        return new Topic(topics.get(0), List.of(members));
    }

    private int next;

    private Member member(String kind, String session, String ts, String title, String status) {
        int n = ++next;
        return new Member("m" + n, kind, session, LocalDateTime.parse(ts), title, "", status, "mem:cit00" + n,
                new Quote("e" + n, "prompt", "quote of " + title));
    }

    private static SharedMemory cited(Member m) {
        return cited(m, m.body());
    }

    private static SharedMemory cited(Member m, String body) {
        return new SharedMemory(m.memoryId(), "/work/shop", m.kind(), m.title(), body, m.ts(),
                m.citation().substring(4), List.of(new SharedQuote(0, "prompt", null, m.quote().text())), m.sessionId(),
                List.of());
    }

    private static SharedMemory memory(String kind, String title, SharedQuote... quotes) {
        return new SharedMemory("m-1", "/work/shop", kind, title, title, LocalDateTime.of(2026, 11, 26, 10, 0),
                "abcdef", List.of(quotes));
    }

}
