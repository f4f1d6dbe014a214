package dev.codememory.processors.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CandidateValidatorTests {

    private static final String SESSION = "9f1c2d7e-5b3a-4c8e-9d21-6a7f0e4b2c11";

    private static final String PROJECT = "code-memory";

    private static final LocalDateTime TS = LocalDateTime.parse("2025-06-01T10:10:00");

    private static final String DECISION = "We'll go with DuckDB instead of SQLite for the event store.";

    private static final Quote DECISION_QUOTE = new Quote("ev-p2", "prompt", DECISION);

    private final CandidateValidator validator = new CandidateValidator();

    // ---- valid candidates ----

    @Test
    void validCandidateBecomesAnEntryKeyedByKindProjectAndTitle() {
        Candidate decision = candidate(CandidateKind.DECISION,
                "We'll go with DuckDB instead of SQLite for the event store", DECISION, null, DECISION_QUOTE);

        EntryDraft entry = valid(decision);

        String key = "decision:code-memory:we ll go with duckdb instead of sqlite for the event store";
        assertThat(entry)
            .isEqualTo(new EntryDraft("ent_" + CanonicalKeys.sha256("decision|code-memory|" + key).substring(0, 32),
                    "cand_1", CandidateKind.DECISION, PROJECT, SESSION, TS,
                    "We'll go with DuckDB instead of SQLite for the event store", DECISION, null, key,
                    List.of(DECISION_QUOTE)));
    }

    @Test
    void exchangeIsKeyedByItsBodyAndOtherKindsByTheirTitle() {
        Candidate first = candidate(CandidateKind.EXCHANGE, "Run the tests", "Run the tests\n\nAll 12 pass.", null,
                new Quote("ev-p1", "prompt", "Run the tests"));
        Candidate second = candidate(CandidateKind.EXCHANGE, "Run the tests", "Run the tests\n\nOne fails.", null,
                new Quote("ev-p9", "prompt", "Run the tests"));
        Candidate fact = candidate(CandidateKind.FACT, "The API runs on port 8080", "Our API (v2) runs on port 8080!",
                null, new Quote("ev-s2", "reply", "Our API (v2) runs on port 8080!"));

        assertThat(CandidateValidator.canonicalKey(first)).isEqualTo("exchange:code-memory:run the tests all 12 pass");
        assertThat(CandidateValidator.canonicalKey(second)).isEqualTo("exchange:code-memory:run the tests one fails");
        assertThat(CandidateValidator.canonicalKey(fact)).isEqualTo("fact:code-memory:the api runs on port 8080");
        assertThat(valid(fact).canonicalKey()).isEqualTo("fact:code-memory:the api runs on port 8080");
    }

    @Test
    void theSameClaimInAnotherSessionGetsTheSameEntryIdAndAnotherProjectDoesNot() {
        Candidate here = candidate(CandidateKind.DECISION, "Use DuckDB", "Use DuckDB.", null,
                new Quote("ev-1", "prompt", "Use DuckDB."));
        Candidate laterSession = new Candidate("cand_2", CandidateKind.DECISION, "other-session", PROJECT,
                TS.plusDays(3), "use   DuckDB!", "use DuckDB!", null,
                List.of(new Quote("ev-9", "prompt", "use DuckDB!")), "rules-v1");
        Candidate otherProject = new Candidate("cand_3", CandidateKind.DECISION, SESSION, "other-project", TS,
                "Use DuckDB", "Use DuckDB.", null, List.of(new Quote("ev-1", "prompt", "Use DuckDB.")), "rules-v1");

        assertThat(valid(laterSession).entryId()).isEqualTo(valid(here).entryId());
        assertThat(valid(otherProject).entryId()).isNotEqualTo(valid(here).entryId());
    }

    // ---- title and body ----

    @Test
    void blankTitleIsInvalid() {
        assertThat(reason(candidate(CandidateKind.FACT, " \n\t", "Our stack is Java 17.", null, DECISION_QUOTE)))
            .isEqualTo("blank title");
    }

    @Test
    void titleLineBreaksBecomeOneSpaceAndALongTitleIsShortenedToTwoHundredChars() {
        String longTitle = "x".repeat(250);

        assertThat(valid(candidate(CandidateKind.FACT, "  Our stack\r\n   is Java 17 ", "b", null, DECISION_QUOTE))
            .title()).isEqualTo("Our stack is Java 17");
        assertThat(valid(candidate(CandidateKind.FACT, longTitle, "b", null, DECISION_QUOTE)).title())
            .isEqualTo("x".repeat(199) + "…");
        assertThat(valid(candidate(CandidateKind.FACT, "y".repeat(200), "b", null, DECISION_QUOTE)).title())
            .isEqualTo("y".repeat(200));
    }

    @Test
    void blankBodyIsInvalid() {
        assertThat(reason(candidate(CandidateKind.FACT, "Our stack is Java 17", "  ", null, DECISION_QUOTE)))
            .isEqualTo("blank body");
    }

    @Test
    void bodyOverEightThousandCharsIsShortenedAndKeyedByTheFullText() {
        String body = "Run the tests\n\n" + "z".repeat(9_000);
        Candidate exchange = candidate(CandidateKind.EXCHANGE, "Run the tests", body, null,
                new Quote("ev-p1", "prompt", "Run the tests"));

        EntryDraft entry = valid(exchange);

        assertThat(entry.body()).hasSize(8_000).isEqualTo(body.substring(0, 7_999) + "…");
        assertThat(valid(candidate(CandidateKind.FACT, "t", "b".repeat(8_000), null, DECISION_QUOTE)).body())
            .isEqualTo("b".repeat(8_000));
        assertThat(entry.canonicalKey()).isEqualTo(CandidateValidator.canonicalKey(exchange))
            .isEqualTo(CanonicalKeys.key("exchange:code-memory", body));
    }

    @Test
    void bodyShorteningNeverSplitsASurrogatePair() {
        String body = "a".repeat(7_998) + "😀" + "tail";

        assertThat(valid(candidate(CandidateKind.FACT, "t", body, null, DECISION_QUOTE)).body())
            .isEqualTo("a".repeat(7_998) + "…");
    }

    // ---- quotes ----

    @Test
    void candidateWithoutQuotesIsInvalid() {
        assertThat(reason(candidate(CandidateKind.FACT, "t", "b", null))).isEqualTo("no quotes");
    }

    @Test
    void twentyQuotesAreAllowedAndTwentyOneAreNot() {
        Quote[] twenty = quotes(20);
        Quote[] twentyOne = quotes(21);

        assertThat(valid(candidate(CandidateKind.FACT, "t", "b", null, twenty)).quotes()).hasSize(20);
        assertThat(reason(candidate(CandidateKind.FACT, "t", "b", null, twentyOne)))
            .isEqualTo("too many quotes: 21 (max 20)");
    }

    @Test
    void quoteOfAThousandCharsIsAllowedAndLongerIsNot() {
        Quote ok = new Quote("ev-1", "reply", "q".repeat(1_000));
        Quote tooLong = new Quote("ev-2", "reply", "q".repeat(1_001));

        assertThat(valid(candidate(CandidateKind.FACT, "t", "b", null, ok)).quotes()).containsExactly(ok);
        assertThat(reason(candidate(CandidateKind.FACT, "t", "b", null, ok, tooLong)))
            .isEqualTo("quote 2 too long: 1001 chars (max 1000)");
    }

    @Test
    void quoteFromAnUnknownFieldIsInvalid() {
        assertThat(reason(candidate(CandidateKind.OBSERVATION, "Bash: ls", "tool: Bash", null,
                new Quote("ev-t1", "tool_input", "ls"), new Quote("ev-t1", "stdout", "a.txt"))))
            .isEqualTo("quote 2: unknown field stdout");
    }

    // ---- tasks ----

    @Test
    void taskWithoutTaskFieldsIsInvalid() {
        assertThat(reason(task("publish the release", null))).isEqualTo("task without task fields");
    }

    @Test
    void taskStatusMustParse() {
        assertThat(reason(task("publish the release", new TaskFields("someday", null, List.of()))))
            .isEqualTo("unknown task status: someday");
        assertThat(valid(task("publish the release", new TaskFields(" In-Progress ", null, List.of()))).task())
            .isEqualTo(new TaskFields("in_progress", null, List.of()));
        assertThat(valid(task("publish the release", new TaskFields("in progress", null, List.of()))).task().status())
            .isEqualTo("in_progress");
        assertThat(valid(task("publish the release", new TaskFields("Canceled", null, List.of()))).task().status())
            .isEqualTo("cancelled");
        assertThat(List.of("pending", "in_progress", "blocked", "done", "cancelled"))
            .allSatisfy(status -> assertThat(validate(task("t", new TaskFields(status, null, List.of("X")))))
                .isInstanceOf(ValidationOutcome.Accepted.class));
    }

    @Test
    void taskPriorityMustBeKnownWhenGiven() {
        assertThat(valid(task("t", new TaskFields("pending", " HIGH", List.of()))).task().priority()).isEqualTo("high");
        assertThat(valid(task("t", new TaskFields("pending", null, List.of()))).task().priority()).isNull();
        assertThat(reason(task("t", new TaskFields("pending", "whenever", List.of()))))
            .isEqualTo("unknown task priority: whenever");
    }

    @Test
    void blockedTaskWithoutBlockersIsInvalid() {
        assertThat(reason(task("publish the release", new TaskFields("blocked", null, List.of()))))
            .isEqualTo("blocked task without blockers");
        assertThat(reason(task("publish the release", new TaskFields("blocked", null, List.of(" ", "")))))
            .isEqualTo("blocked task without blockers");
    }

    @Test
    void blockedTaskKeepsItsBlockersStrippedAndOnce() {
        assertThat(valid(task("publish the release",
                new TaskFields("blocked", "high", List.of(" PROJ-42", "PROJ-42 ", "legal review", "  "))))
            .task()).isEqualTo(new TaskFields("blocked", "high", List.of("PROJ-42", "legal review")));
    }

    @Test
    void doneTaskDropsItsBlockersAndSoDoesEveryStatusButBlocked() {
        assertThat(valid(task("publish the release", new TaskFields("done", null, List.of("PROJ-42")))).task())
            .isEqualTo(new TaskFields("done", null, List.of()));
        assertThat(valid(task("publish the release", new TaskFields("pending", null, List.of("PROJ-42")))).task())
            .isEqualTo(new TaskFields("pending", null, List.of()));
    }

    @Test
    void taskFieldsOnAnotherKindAreDropped() {
        Candidate fact = candidate(CandidateKind.FACT, "Our stack is Java 17", "Our stack is Java 17.",
                new TaskFields("blocked", null, List.of()), DECISION_QUOTE);

        assertThat(valid(fact).task()).isNull();
    }

    // ---- privacy ----

    @Test
    void privateTagAnywhereIsInvalidWhateverItsCase() {
        assertThat(reason(
                candidate(CandidateKind.FACT, "t", "my ssn is <PRIVATE>123-45-6789</Private>", null, DECISION_QUOTE)))
            .isEqualTo("privacy: <private> tag in body");
        assertThat(reason(candidate(CandidateKind.FACT, "t <private", "b", null, DECISION_QUOTE)))
            .isEqualTo("privacy: <private> tag in title");
    }

    @Test
    void secretShapeIsInvalidAndTheReasonDoesNotRepeatIt() {
        String key = "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0".repeat(2);

        assertThat(reason(candidate(CandidateKind.FACT, "t", "b", null, DECISION_QUOTE,
                new Quote("ev-s", "reply", "export ANTHROPIC_API_KEY=" + key))))
            .isEqualTo("privacy: secret in quote 2");
        assertThat(reason(candidate(CandidateKind.FACT, "db password=hunter22", "b", null, DECISION_QUOTE)))
            .isEqualTo("privacy: secret in title");
        assertThat(reason(task("rotate the key", new TaskFields("blocked", null, List.of("PROJ-1", "token: " + key)))))
            .isEqualTo("privacy: secret in blocker 2");
    }

    @Test
    void privacyIsCheckedBeforeEveryOtherInvariant() {
        assertThat(reason(candidate(CandidateKind.FACT, " ", "password=hunter22", null)))
            .isEqualTo("privacy: secret in body");
    }

    @Test
    void alreadyRedactedTextIsNotPrivate() {
        Candidate redacted = candidate(CandidateKind.FACT, "The deploy token is set", "token: [REDACTED] and [PRIVATE]",
                null, new Quote("ev-p", "prompt", "password=\"[REDACTED]\""));

        assertThat(validate(redacted)).isInstanceOf(ValidationOutcome.Accepted.class);
    }

    // ---- helpers ----

    private ValidationOutcome validate(Candidate candidate) {
        return validator.validate(candidate);
    }

    private EntryDraft valid(Candidate candidate) {
        ValidationOutcome validation = validate(candidate);
        assertThat(validation).isInstanceOf(ValidationOutcome.Accepted.class);
        return ((ValidationOutcome.Accepted) validation).entry();
    }

    private String reason(Candidate candidate) {
        ValidationOutcome validation = validate(candidate);
        assertThat(validation).isInstanceOf(ValidationOutcome.Rejected.class);
        return ((ValidationOutcome.Rejected) validation).reason();
    }

    private static Candidate candidate(CandidateKind kind, String title, String body, TaskFields task,
            Quote... quotes) {
        return new Candidate("cand_1", kind, SESSION, PROJECT, TS, title, body, task, Arrays.asList(quotes),
                "rules-v1");
    }

    private static Candidate task(String title, TaskFields task) {
        return candidate(CandidateKind.TASK, title, "TODO: " + title, task,
                new Quote("ev-p3", "prompt", "TODO: " + title));
    }

    private static Quote[] quotes(int n) {
        List<Quote> quotes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            quotes.add(new Quote("ev-" + i, "prompt", "quote " + i));
        }
        return quotes.toArray(new Quote[0]);
    }

}
