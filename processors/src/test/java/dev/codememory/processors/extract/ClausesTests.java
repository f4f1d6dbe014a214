package dev.codememory.processors.extract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClausesTests {

    @ParameterizedTest
    @ValueSource(strings = { "fix the login redirect", "ship 0.2", "migrate the settings loader",
            "We'll go with DuckDB instead of SQLite for the event store", "Turns out the migration ran on every start",
            "The deployment target is a single Linux VM", "rotate the signing keys later",
            "please add a restart test for the embed step", "Use tabs, not spaces", "이벤트 저장소는 DuckDB로 결정했다",
            "다음 주까지 릴리스 노트를 작성해야 한다", "locate the Terminal MCP in this project, maybe in dev-tools" })
    void wholeClausesWithAVerbAndAnObjectAreClauses(String title) {
        assertThat(Clauses.isClause(title)).as(title).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "The CLI", "See how much of that", "circumvent it", "Next Steps", "🎉 Phase 1", "I prefer",
            "you to", "The implementation", "what should we do next", "How does the spool work", "fix the bug?", "",
            "   ", "go ahead and do it", "make sure that", "모킹" })
    void fragmentsQuestionsAndDanglingObjectsAreNot(String title) {
        assertThat(Clauses.isClause(title)).as(title).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "PROJ-42", "https://github.com/acme/app/issues/7", "acme/app#12", "#12", "legal review",
            "the API key rotation", "배포" })
    void namedBlockersAreBlockers(String blocker) {
        assertThat(Clauses.isBlocker(blocker)).as(blocker).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "you to", "it", "that", "", "the", "us and" })
    void pronounsAndFragmentsAreNotBlockers(String blocker) {
        assertThat(Clauses.isBlocker(blocker)).as(blocker).isFalse();
    }

}
