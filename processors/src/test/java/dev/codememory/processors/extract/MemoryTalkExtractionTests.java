package dev.codememory.processors.extract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.Turn;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryTalkExtractionTests {

    private static final String SESSION = "s-ask";

    private final RuleBasedExtractor extractor = new RuleBasedExtractor();

    @Test
    void aQuestionAnsweredFromMemoryIsNoExchangeAndItsEchoClaimsNothing() {
        Turn asked = turn(SESSION, "t1", "10:00", "why did we add the rate limiter?",
                "We decided to add the rate limiter because the billing API throttled us [mem:Ab3_x-].");

        List<Candidate> candidates = extractor.extract(slice(SESSION, List.of(asked), List.of()));

        assertThat(candidates).isEmpty();
    }

    @Test
    void aPickUpPromptAndMemoryToolCallsLeaveNothing() {
        Turn pickUp = turn(SESSION, "t1", "10:00", "Where were we?",
                "We were adding the rate limiter; we decided on a token bucket.");
        Turn search = turn(SESSION, "t2", "10:05", "Look up what we decided about retries",
                "We decided on exponential backoff.");
        Observation mcp = new Observation("o1", SESSION, "p", "mcp__code-memory__mem-search", List.of(), null, false,
                null, null, at("10:05:10"), "{\"query\":\"retries\"}", "mem-search: 1 memory");

        List<Candidate> candidates = extractor.extract(slice(SESSION, List.of(pickUp, search), List.of(mcp)));

        assertThat(candidates).isEmpty();
    }

    @Test
    void aWorkingTurnKeepsItsExchangeButNotTheSentencesThatRestateAMemory() {
        Turn work = turn(SESSION, "t1", "10:00", "Add a limit of 100 requests per minute to the billing client",
                "We decided on a token bucket earlier [mem:Ab3_x-]. Turns out the client already retried on 429.");
        Observation edit = new Observation("o1", SESSION, "p", "Edit", List.of("/p/Billing.java"), null, false, null,
                null, at("10:01"), "{\"file_path\":\"/p/Billing.java\"}", "{}");

        List<Candidate> candidates = extractor.extract(slice(SESSION, List.of(work), List.of(edit)));

        assertThat(candidates).extracting(Candidate::kind, Candidate::title)
            .containsExactly(
                    tuple(CandidateKind.EXCHANGE, "Add a limit of 100 requests per minute to the billing client"),
                    tuple(CandidateKind.INSIGHT, "Turns out the client already retried on 429"),
                    tuple(CandidateKind.OBSERVATION, "Edit /p/Billing.java"));
    }

    @Test
    void aSaveIsOneMemoryOfTheKindTheUsersWordsAre() {
        assertThat(saved("Remember that we always squash-merge pull requests"))
            .extracting(Candidate::kind, Candidate::title, Candidate::body)
            .containsExactly(tuple(CandidateKind.PREFERENCE, "we always squash-merge pull requests",
                    "we always squash-merge pull requests"));
        assertThat(saved("Remember: never push to main")).extracting(Candidate::kind, Candidate::title)
            .containsExactly(tuple(CandidateKind.PREFERENCE, "never push to main"));
        assertThat(saved("We decided to deploy from the release branch.")).extracting(Candidate::kind)
            .containsExactly(CandidateKind.DECISION);
        List<Candidate> fact = saved("Remember: the billing API sandbox key is in the team vault");
        assertThat(fact).extracting(Candidate::kind, Candidate::title)
            .containsExactly(tuple(CandidateKind.FACT, "the billing API sandbox key is in the team vault"));
        assertThat(fact.get(0).quotes())
            .containsExactly(new Quote("e-t1", "prompt", "the billing API sandbox key is in the team vault"));
    }

    private List<Candidate> saved(String text) {
        String session = "mem-save-0b7e";
        return extractor.extract(slice(session, List.of(turn(session, "t1", "10:00", text, null)), List.of()));
    }

    private static SessionSlice slice(String session, List<Turn> turns, List<Observation> observations) {
        return new SessionSlice(session, "p", turns, observations);
    }

    private static Turn turn(String session, String id, String time, String prompt, String reply) {
        return new Turn(id, session, "p", "e-" + id, prompt, reply == null ? null : "r-" + id, reply,
                reply == null ? null : "stop", at(time), reply == null ? null : at(time).plusSeconds(5));
    }

    private static LocalDateTime at(String time) {
        return LocalDateTime.parse("2026-11-20T" + (time.length() == 5 ? time + ":00" : time));
    }

}
