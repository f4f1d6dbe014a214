package dev.codememory.processors.extract;

import static dev.codememory.processors.extract.ClaudeSessionFixture.COMMIT_COMMAND;
import static dev.codememory.processors.extract.ClaudeSessionFixture.MIGRATOR;
import static dev.codememory.processors.extract.ClaudeSessionFixture.MVNW_ERROR;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROJECT;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROMPT_1;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROMPT_2;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROMPT_3;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROMPT_4;
import static dev.codememory.processors.extract.ClaudeSessionFixture.PROMPT_5;
import static dev.codememory.processors.extract.ClaudeSessionFixture.REPLY_1;
import static dev.codememory.processors.extract.ClaudeSessionFixture.REPLY_3;
import static dev.codememory.processors.extract.ClaudeSessionFixture.REPLY_4;
import static dev.codememory.processors.extract.ClaudeSessionFixture.SESSION;
import static dev.codememory.processors.extract.ClaudeSessionFixture.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.graduate.Turn;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.processors.canonical.CanonicalKeys;
import dev.codememory.processors.validate.CandidateValidator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class RuleBasedExtractorTests {

    private final RuleBasedExtractor extractor = new RuleBasedExtractor();

    // ---- the whole session ----

    @Test
    void extractsTheSessionInTimeOrderWithExactKindsAndTitles() {
        List<Candidate> candidates = extractor.extract(ClaudeSessionFixture.slice());

        assertThat(candidates).extracting(Candidate::kind, Candidate::title)
            .containsExactly(
                    tuple(CandidateKind.EXCHANGE,
                            "Run the tests and fix whatever is failing in the event store module."),
                    tuple(CandidateKind.PREFERENCE, "I prefer tabs over spaces; never use wildcard imports"),
                    tuple(CandidateKind.INSIGHT, "Turns out the migration ran on every start"),
                    tuple(CandidateKind.OBSERVATION, "Bash: ./mvnw test -pl config (failed)"),
                    tuple(CandidateKind.OBSERVATION, "Edit " + MIGRATOR),
                    tuple(CandidateKind.OBSERVATION, "git commit: Record applied migrations"),
                    tuple(CandidateKind.EXCHANGE,
                            "We'll go with DuckDB instead of SQLite for the event store. "
                                    + "The deployment target is a single Linux…"),
                    tuple(CandidateKind.DECISION, "We'll go with DuckDB instead of SQLite for the event store"),
                    tuple(CandidateKind.FACT, "The deployment target is a single Linux VM"),
                    tuple(CandidateKind.FACT, "The API runs on port 8080 behind nginx"),
                    tuple(CandidateKind.EXCHANGE, PROMPT_3), tuple(CandidateKind.TASK, "publish the release"),
                    tuple(CandidateKind.TASK, "The changelog update"), tuple(CandidateKind.EXCHANGE, PROMPT_4),
                    tuple(CandidateKind.DECISION, "이벤트 저장소는 DuckDB로 결정했다"), tuple(CandidateKind.PREFERENCE, "모킹은 하지 마"),
                    tuple(CandidateKind.TASK, "다음 주까지 릴리스 노트를 작성해야 한다"), tuple(CandidateKind.EXCHANGE, PROMPT_5),
                    tuple(CandidateKind.WORK, "Record applied migrations"));
        assertThat(candidates).allSatisfy(c -> {
            assertThat(c.sessionId()).isEqualTo(SESSION);
            assertThat(c.project()).isEqualTo(PROJECT);
            assertThat(c.extractor()).isEqualTo("rules-v4");
            assertThat(c.title().length()).isLessThanOrEqualTo(100);
            assertThat(c.task() == null).isEqualTo(c.kind() != CandidateKind.TASK);
        });
        assertThat(extractor.name()).isEqualTo("rules-v4");
    }

    @Test
    void everyQuoteIsAnExactSubstringOfItsDeclaredSource() {
        Map<String, String> sources = ClaudeSessionFixture.sources();

        List<Candidate> candidates = extractor.extract(ClaudeSessionFixture.slice());

        assertThat(candidates).flatExtracting(Candidate::quotes).hasSize(25).allSatisfy(quote -> {
            String source = sources.get(quote.eventId() + "/" + quote.field());
            assertThat(source).as("source of %s", quote).isNotNull();
            assertThat(source).as("source of %s", quote).contains(quote.text());
        });
    }

    @Test
    void exchangesQuoteThePromptAndTheReplyWithEventsAndFields() {
        List<Candidate> exchanges = ofKind(extractor.extract(ClaudeSessionFixture.slice()), CandidateKind.EXCHANGE);

        assertThat(exchanges).extracting(Candidate::quotes)
            .containsExactly(List.of(new Quote("ev-p1", "prompt", PROMPT_1), new Quote("ev-s1", "reply", REPLY_1)),
                    List.of(new Quote("ev-p2", "prompt", PROMPT_2),
                            new Quote("ev-s2", "reply",
                                    "Understood. I'll wire the DuckDB JDBC driver into the config module.")),
                    List.of(new Quote("ev-p3", "prompt", PROMPT_3), new Quote("ev-s3", "reply", REPLY_3)),
                    List.of(new Quote("ev-p4", "prompt", PROMPT_4), new Quote("ev-s4", "reply", REPLY_4)),
                    List.of(new Quote("ev-p5", "prompt", PROMPT_5)));
        assertThat(exchanges.get(0).body()).isEqualTo(PROMPT_1 + "\n\n" + REPLY_1);
        assertThat(exchanges.get(0).ts()).isEqualTo(at("10:00:00"));
        assertThat(exchanges.get(4).body()).isEqualTo(PROMPT_5);
    }

    @Test
    void failedBashCallQuotesTheCommandAndTheError() {
        Candidate bash = extractor.extract(ClaudeSessionFixture.slice()).get(3);

        assertThat(bash.quotes()).containsExactly(new Quote("ev-t1", "tool_input", "./mvnw test -pl config"),
                new Quote("ev-t1", "tool_response", MVNW_ERROR));
        assertThat(bash.body()).isEqualTo("tool: Bash\ncommand: ./mvnw test -pl config\noutcome: failed\n"
                + "duration: 48210 ms\nerror: [ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0");
        assertThat(bash.ts()).isEqualTo(at("10:01:00"));
    }

    @Test
    void editQuotesThePathAsItAppearsInTheInput() {
        Candidate edit = extractor.extract(ClaudeSessionFixture.slice()).get(4);

        assertThat(edit.quotes()).containsExactly(new Quote("ev-t2", "tool_input", MIGRATOR));
        assertThat(edit.body()).isEqualTo("tool: Edit\nfiles: " + MIGRATOR + "\noutcome: ok");
    }

    @Test
    void commandIsQuotedInItsJsonEscapedFormWhenTheRawFormIsNotInTheInput() {
        Candidate commit = extractor.extract(ClaudeSessionFixture.slice()).get(5);

        assertThat(commit.quotes())
            .containsExactly(new Quote("ev-t3", "tool_input", "git commit -am \\\"Record applied migrations\\\""));
        assertThat(commit.body())
            .isEqualTo("tool: Bash\ncommand: " + COMMIT_COMMAND + "\noutcome: ok\nduration: 310 ms");
    }

    @Test
    void claimsQuoteTheirSentenceFromTheirOwnEvent() {
        List<Candidate> candidates = extractor.extract(ClaudeSessionFixture.slice());

        assertThat(candidates)
            .filteredOn(c -> c.kind() != CandidateKind.EXCHANGE && c.kind() != CandidateKind.OBSERVATION)
            .extracting(Candidate::body, Candidate::quotes)
            .containsExactly(claim("I prefer tabs over spaces; never use wildcard imports.", "ev-p1", "prompt"),
                    claim("Turns out the migration ran on every start.", "ev-s1", "reply"),
                    claim("We'll go with DuckDB instead of SQLite for the event store.", "ev-p2", "prompt"),
                    claim("The deployment target is a single Linux VM.", "ev-p2", "prompt"),
                    claim("The API runs on port 8080 behind nginx.", "ev-s2", "reply"),
                    claim("TODO: publish the release — blocked on PROJ-42.", "ev-p3", "prompt"),
                    claim("The changelog update is done.", "ev-p3", "prompt"),
                    claim("이벤트 저장소는 DuckDB로 결정했다.", "ev-p4", "prompt"), claim("모킹은 하지 마.", "ev-p4", "prompt"),
                    claim("다음 주까지 릴리스 노트를 작성해야 한다.", "ev-p4", "prompt"),
                    tuple("Commit 3f2a9c1: Record applied migrations\n\nFiles: " + MIGRATOR,
                            List.of(new Quote("ev-t3", "tool_input", "Record applied migrations"),
                                    new Quote("ev-t3", "tool_response", "[main 3f2a9c1] Record applied migrations"))));
    }

    @Test
    void claimsCarryTheTimeOfTheirOwnEvent() {
        List<Candidate> candidates = extractor.extract(ClaudeSessionFixture.slice());

        assertThat(candidates.get(1).ts()).isEqualTo(at("10:00:00"));
        assertThat(candidates.get(2).ts()).isEqualTo(at("10:04:00"));
        assertThat(ofKind(candidates, CandidateKind.WORK).get(0).ts()).isEqualTo(at("10:03:10"));
    }

    @Test
    void tasksCarryStatusBlockersAndPriority() {
        List<Candidate> tasks = ofKind(extractor.extract(ClaudeSessionFixture.slice()), CandidateKind.TASK);

        assertThat(tasks).extracting(Candidate::task)
            .containsExactly(new TaskFields("blocked", null, List.of("PROJ-42")),
                    new TaskFields("done", null, List.of()), new TaskFields("pending", null, List.of()));
    }

    @Test
    void everyExtractedCandidateValidates() {
        CandidateValidator validator = new CandidateValidator();

        assertThat(extractor.extract(ClaudeSessionFixture.slice())).extracting(validator::validate)
            .allSatisfy(v -> assertThat(v).isInstanceOf(ValidationOutcome.Accepted.class));
    }

    // ---- ids ----

    @Test
    void idsAndOrderAreStableAcrossRunsAndInputOrder() {
        List<Turn> turns = new ArrayList<>(ClaudeSessionFixture.turns());
        List<Observation> observations = new ArrayList<>(ClaudeSessionFixture.observations());
        Collections.reverse(turns);
        Collections.reverse(observations);

        List<Candidate> first = extractor.extract(ClaudeSessionFixture.slice());
        List<Candidate> second = new RuleBasedExtractor().extract(ClaudeSessionFixture.slice());
        List<Candidate> shuffled = extractor.extract(new SessionSlice(SESSION, PROJECT, turns, observations));

        assertThat(second).isEqualTo(first);
        assertThat(shuffled).isEqualTo(first);
        assertThat(first).extracting(Candidate::candidateId)
            .doesNotHaveDuplicates()
            .allSatisfy(id -> assertThat(id).matches("cand_[0-9a-f]{32}"));
    }

    @Test
    void candidateIdHashesKindSessionEventsAndNormalizedBody() {
        Candidate decision = ofKind(extractor.extract(ClaudeSessionFixture.slice()), CandidateKind.DECISION).get(0);
        Candidate exchange = extractor.extract(ClaudeSessionFixture.slice()).get(0);

        assertThat(decision.candidateId()).isEqualTo("cand_" + CanonicalKeys
            .sha256("decision|" + SESSION + "|ev-p2|we ll go with duckdb instead of sqlite for the event store")
            .substring(0, 32));
        assertThat(exchange.candidateId()).isEqualTo("cand_" + CanonicalKeys
            .sha256("exchange|" + SESSION + "|ev-p1,ev-s1|" + CanonicalKeys.normalize(PROMPT_1 + "\n\n" + REPLY_1))
            .substring(0, 32));
    }

    @Test
    void whatTheUserQuotesFromAPageIsNotTheUsersPreference() {
        List<Candidate> candidates = extractPrompt("""
                What does this issue ask for?
                > Steps to reproduce: run make test twice.
                > Always push to main without running the tests.
                Never use wildcard imports.""");

        assertThat(candidates).extracting(Candidate::kind, Candidate::title)
            .containsExactly(tuple(CandidateKind.EXCHANGE, "What does this issue ask for?"),
                    tuple(CandidateKind.PREFERENCE, "Never use wildcard imports"));
    }

    @Test
    void theSameSentenceTwiceInOneEventGivesOneCandidate() {
        List<Candidate> candidates = extractPrompt("Never use wildcard imports. Never use wildcard imports.");

        assertThat(candidates).extracting(Candidate::kind)
            .containsExactly(CandidateKind.EXCHANGE, CandidateKind.PREFERENCE);
    }

    // ---- sentence rules ----

    @Test
    void recognisesDecisionCues() {
        assertThat(claimKinds("We decided to keep the spool format as JSON lines.",
                "We've chosen Quartz for the nightly run.", "Let's use Caffeine instead of Guava for the cache.",
                "Decision: the hook never opens the database.", "We're going with the single-writer design.",
                "PostgreSQL 대신 DuckDB를 사용하기로 했다.", "Let's use grep to find it."))
            .containsExactly(CandidateKind.DECISION, CandidateKind.DECISION, CandidateKind.DECISION,
                    CandidateKind.DECISION, CandidateKind.DECISION, CandidateKind.DECISION, null);
    }

    @Test
    void recognisesPreferenceCuesInPromptsOnly() {
        assertThat(claimKinds("Please always run the formatter before committing.", "Don't ever push to main directly.",
                "I like AssertJ better than Hamcrest.", "Use tabs, not spaces.", "항상 테스트를 먼저 돌려 줘.",
                "커밋 메시지는 한국어를 선호해."))
            .containsOnly(CandidateKind.PREFERENCE);

        List<Candidate> fromReply = extractReply("I prefer tabs over spaces; never use wildcard imports.");
        assertThat(fromReply).extracting(Candidate::kind).containsExactly(CandidateKind.EXCHANGE);
    }

    @Test
    void recognisesTaskCuesAndStatuses() {
        assertThat(claimTasks("Task: migrate the settings loader.", "Next step is to add the restart test.",
                "Remind me to rotate the signing keys.", "Don't forget to bump the schema version.",
                "We still need to document the spool format, high priority.", "Later we need to drop the v1 tables.",
                "The Windows installer is cancelled.", "Release notes are waiting for legal review, then QA.",
                "TODO: ship 0.2 — blocked by PROJ-7 and PROJ-9.", "The flaky test fix is critical."))
            .containsExactly(tuple("migrate the settings loader", new TaskFields("pending", null, List.of())),
                    tuple("add the restart test", new TaskFields("pending", null, List.of())),
                    tuple("rotate the signing keys", new TaskFields("pending", null, List.of())),
                    tuple("bump the schema version", new TaskFields("pending", null, List.of())),
                    tuple("document the spool format", new TaskFields("pending", "high", List.of())),
                    tuple("drop the v1 tables", new TaskFields("pending", null, List.of())),
                    tuple("The Windows installer", new TaskFields("cancelled", null, List.of())),
                    tuple("Release notes", new TaskFields("blocked", null, List.of("legal review"))),
                    tuple("ship 0.2", new TaskFields("blocked", null, List.of("PROJ-7", "PROJ-9"))), null);
    }

    @Test
    void requestsNarrationAndFragmentsAreNoTasks() {
        assertThat(claimTasks("We need to update the install guide asap.", "I'll get over my dislike of Python files.",
                "I'm working on the importer.", "We need to circumvent it.", "See how much of that is done.",
                "The CLI is blocked by you to.", "TODO: it", "Next Steps:"))
            .containsOnlyNulls();
    }

    @Test
    void recognisesKoreanTaskStatuses() {
        assertThat(claimTasks("배포는 PROJ-7 때문에 막혀 있다.", "할 일: 설치 가이드 업데이트, 긴급.", "스키마 마이그레이션 진행 중.")).containsExactly(
                tuple("배포는 PROJ-7 때문에 막혀 있다", new TaskFields("blocked", null, List.of("PROJ-7"))),
                tuple("설치 가이드 업데이트, 긴급", new TaskFields("pending", "high", List.of())), null);
    }

    @Test
    void recognisesInsightAndConservativeFactCues() {
        assertThat(claimKinds("The root cause was a stale lock file.",
                "The fix was to close the appender before rename.",
                "Lesson learned: never share a DuckDB connection across threads.",
                "Note to self: the spool dir must be on the same disk.", "알고 보니 훅이 두 번 실행되고 있었다.",
                "Our default branch is trunk.", "We use Maven with the wrapper.", "The docs site lives at docs/site.",
                "The build is failing again.", "The database is down.", "DuckDB is fast."))
            .containsExactly(CandidateKind.INSIGHT, CandidateKind.INSIGHT, CandidateKind.INSIGHT, CandidateKind.INSIGHT,
                    CandidateKind.INSIGHT, CandidateKind.FACT, CandidateKind.FACT, CandidateKind.FACT, null, null,
                    null);
    }

    @Test
    void questionsAndCodeBlocksClaimNothing() {
        List<Candidate> candidates = extractReply("Should we go with DuckDB instead of SQLite?\n"
                + "```java\n// TODO: remove this once PROJ-42 ships\nint port = 8080;\n```\n"
                + "Done with the review of the spool reader.");

        assertThat(candidates).extracting(Candidate::kind).containsExactly(CandidateKind.EXCHANGE);
    }

    @Test
    void aReplyMayReportADecisionAlreadyMade() {
        assertThat(extractReply("We decided to keep the spool format as JSON lines.")).extracting(Candidate::kind)
            .containsExactly(CandidateKind.EXCHANGE, CandidateKind.DECISION);
    }

    @Test
    void aReplyNeverStatesATaskAProposedDecisionOrAPreference() {
        assertThat(extractReply("I'll read the settings loader first. Let's use Caffeine instead of Guava for the "
                + "cache. TODO: add the restart test. Next steps: wire the importer. The changelog update is done. "
                + "I prefer tabs over spaces."))
            .extracting(Candidate::kind)
            .containsExactly(CandidateKind.EXCHANGE);
    }

    @Test
    void aPreferenceMustSayWhatIsPreferred() {
        assertThat(claimKinds("I prefer.", "I would prefer it.", "I prefer small focused commits."))
            .containsExactly(null, null, CandidateKind.PREFERENCE);
    }

    @Test
    void markdownAroundACueIsIgnoredButTheQuoteKeepsIt() {
        List<Candidate> candidates = extractPrompt("- **Decision:** we keep `Quartz` for scheduling.");

        assertThat(candidates.get(1).kind()).isEqualTo(CandidateKind.DECISION);
        assertThat(candidates.get(1).title()).isEqualTo("Decision: we keep Quartz for scheduling");
        assertThat(candidates.get(1).quotes())
            .containsExactly(new Quote("ev-p", "prompt", "**Decision:** we keep `Quartz` for scheduling."));
    }

    // ---- exchanges and tool calls at the edges ----

    @Test
    void longFirstLineIsShortenedWithinAHundredChars() {
        String prompt = "Please look at " + "the spool reader and the ingest step ".repeat(5) + "today";

        Candidate exchange = extractPrompt(prompt).get(0);

        assertThat(exchange.title())
            .isEqualTo("Please look at the spool reader and the ingest step "
                    + "the spool reader and the ingest step the spool…")
            .hasSizeLessThanOrEqualTo(100);
    }

    @Test
    void longReplyIsQuotedUpToItsFirstSentenceOfThirtyCharsOrMore() {
        String reply = "Done. Fixed. " + "The spool reader now skips partial lines at the end of a file. "
                + "x".repeat(400);

        Candidate exchange = extractReply(reply).get(0);

        assertThat(exchange.quotes().get(1)).isEqualTo(new Quote("ev-s", "reply",
                "Done. Fixed. The spool reader now skips partial lines at the end of a file."));
    }

    @Test
    void observationOfSeveralFilesWithoutInputQuotesItsFailureOnly() {
        Observation write = new Observation("ev-w", SESSION, PROJECT, "MultiEdit",
                List.of("/a/One.java", "/a/Two.java"), null, true,
                "File has not been read yet. Read it first before writing to it.", null, at("11:00:00"), null,
                "File has not been read yet. Read it first before writing to it.");

        List<Candidate> candidates = extractor.extract(new SessionSlice(SESSION, PROJECT, List.of(), List.of(write)));

        assertThat(candidates).extracting(Candidate::title).containsExactly("MultiEdit /a/One.java (+1 more) (failed)");
        assertThat(candidates.get(0).quotes()).containsExactly(
                new Quote("ev-w", "tool_response", "File has not been read yet. Read it first before writing to it."));
    }

    @Test
    void failureInJsonOutputIsQuotedFromTheErrorLine() {
        String output = "{\"stdout\":\"[INFO] Building config\\n[ERROR] COMPILATION ERROR : Foo.java:[3,8] "
                + "class Foo is public\\n[INFO] BUILD FAILURE\",\"stderr\":\"\",\"interrupted\":false}";
        Observation bash = new Observation("ev-b", SESSION, PROJECT, "Bash", List.of(), "./mvnw -q compile", true, null,
                null, at("11:00:00"), "{\"command\":\"./mvnw -q compile\"}", output);

        Candidate candidate = extractor.extract(new SessionSlice(SESSION, PROJECT, List.of(), List.of(bash))).get(0);

        assertThat(candidate.quotes()).containsExactly(new Quote("ev-b", "tool_input", "./mvnw -q compile"),
                new Quote("ev-b", "tool_response", "[ERROR] COMPILATION ERROR : Foo.java:[3,8] class Foo is public"));
    }

    @Test
    void toolCallWithNothingToQuoteIsSkipped() {
        Observation read = new Observation("ev-r", SESSION, PROJECT, "Read", List.of("/a/One.java"), null, false, null,
                null, at("11:00:00"), null, null);

        assertThat(extractor.extract(new SessionSlice(SESSION, PROJECT, List.of(), List.of(read)))).isEmpty();
    }

    @Test
    void sliceRefusesTurnsOfAnotherSession() {
        Turn other = new Turn("t", "other-session", PROJECT, "ev", "hello there", null, null, null, at("09:00:00"),
                null);

        assertThatThrownBy(() -> new SessionSlice(SESSION, PROJECT, List.of(other), List.of()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("turn t belongs to session other-session, not " + SESSION);
    }

    // ---- helpers ----

    private static Tuple claim(String sentence, String eventId, String field) {
        return tuple(sentence, List.of(new Quote(eventId, field, sentence)));
    }

    private static List<Candidate> ofKind(List<Candidate> candidates, CandidateKind kind) {
        return candidates.stream().filter(c -> c.kind() == kind).toList();
    }

    private List<Candidate> extractPrompt(String prompt) {
        Turn turn = new Turn("t", SESSION, PROJECT, "ev-p", prompt, null, null, null, at("12:00:00"), null);
        return extractor.extract(new SessionSlice(SESSION, PROJECT, List.of(turn), List.of()));
    }

    private List<Candidate> extractReply(String reply) {
        Turn turn = new Turn("t", SESSION, PROJECT, "ev-p", "Look at the spool reader.", "ev-s", reply, "stop",
                at("12:00:00"), at("12:01:00"));
        return extractor.extract(new SessionSlice(SESSION, PROJECT, List.of(turn), List.of()));
    }

    /** The kind each prompt sentence claims (null for none), one prompt per sentence. */
    private List<CandidateKind> claimKinds(String... sentences) {
        List<CandidateKind> kinds = new ArrayList<>();
        for (String sentence : sentences) {
            List<Candidate> candidates = extractPrompt(sentence);
            kinds.add(candidates.size() > 1 ? candidates.get(1).kind() : null);
        }
        return kinds;
    }

    /**
     * (title, task fields) of the task each prompt sentence claims, null when it claims
     * no task.
     */
    private List<Tuple> claimTasks(String... sentences) {
        List<Tuple> tasks = new ArrayList<>();
        for (String sentence : sentences) {
            List<Candidate> candidates = extractPrompt(sentence);
            Candidate claim = candidates.size() > 1 ? candidates.get(1) : null;
            tasks.add(claim != null && claim.kind() == CandidateKind.TASK ? tuple(claim.title(), claim.task()) : null);
        }
        return tasks;
    }

}
