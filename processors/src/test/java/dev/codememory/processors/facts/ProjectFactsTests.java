package dev.codememory.processors.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.codememory.config.facts.ProjectActivity.Edit;
import dev.codememory.config.facts.ProjectActivity.Run;
import dev.codememory.config.facts.ProjectActivity;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProjectFactsTests {

    private static final String P = "/home/dev/shop";

    private static final LocalDateTime T = LocalDateTime.parse("2026-03-02T09:00:00");

    private final ProjectFacts facts = new ProjectFacts();

    @Test
    void theCommandsThatTestBuildAndRunTheProjectMostOftenAreFacts() {
        List<Candidate> out = facts.facts(new ProjectActivity(P, 9, List.of(run("r1", "s1", 0, "npm test"),
                run("r2", "s1", 1, "cd /home/dev/shop && npm test 2>&1 | tail -20"),
                run("r3", "s2", 2, "npm test -- --watch=false"), run("r4", "s2", 3, "npm run build"),
                run("r5", "s2", 4, "npm run build"), run("r6", "s2", 5, "npm run dev"),
                run("r7", "s2", 6, "git status"), run("r8", "s2", 7, "git status"), new Run("r9", "s2",
                        T.plusMinutes(8), "npm run dev", "The user doesn't want to proceed with this tool use.")),
                List.of()));

        assertThat(out).extracting(Candidate::title, Candidate::sessionId, Candidate::ts)
            .containsExactly(tuple("Test command: `npm test`", "s1", T.plusMinutes(1)),
                    tuple("Build command: `npm run build`", "s2", T.plusMinutes(4)));
        assertThat(out.get(0).body())
            .isEqualTo("The tests run with `npm test` (2 successful runs in 1 session, " + "the last on 2026-03-02).");
        assertThat(out.get(0).quotes()).extracting(Quote::eventId, Quote::field, Quote::text)
            .containsExactly(tuple("r1", "tool_input", "npm test"),
                    tuple("r2", "tool_input", "cd /home/dev/shop && npm test 2>&1 | tail -20"));
        assertThat(out).allSatisfy(c -> assertThat(c.extractor()).isEqualTo(ProjectFacts.NAME));
    }

    @Test
    void filesEditedInSeveralSessionsAreTheFilesThatMatter() {
        List<Candidate> out = facts.facts(new ProjectActivity(P, 6, List.of(),
                List.of(edit("e1", "s1", 0, P + "/src/cart.ts"), edit("e2", "s2", 1, P + "/src/cart.ts"),
                        edit("e3", "s2", 2, P + "/src/cart.ts"), edit("e4", "s1", 3, P + "/README.md"),
                        edit("e5", "s3", 4, P + "/README.md"), edit("e6", "s3", 5, P + "/src/once.ts"))));

        assertThat(out).extracting(Candidate::title).containsExactly("Files edited most: src/cart.ts, README.md");
        assertThat(out.get(0).body()).isEqualTo("The files this project's sessions changed most:\n"
                + "- src/cart.ts — 3 edits in 2 sessions\n- README.md — 2 edits in 2 sessions");
        assertThat(out.get(0).quotes()).extracting(Quote::eventId, Quote::text)
            .containsExactly(tuple("e3", P + "/src/cart.ts"), tuple("e5", P + "/README.md"));
        assertThat(out.get(0).sessionId()).isEqualTo("s3");
    }

    @Test
    void oneRunOrOneSessionIsNotYetAFact() {
        assertThat(facts.facts(new ProjectActivity(P, 3, List.of(run("r1", "s1", 0, "mix test")),
                List.of(edit("e1", "s1", 1, P + "/lib/a.ex"), edit("e2", "s1", 2, P + "/lib/a.ex")))))
            .isEmpty();
    }

    @Test
    void rolesAreReadOffTheFirstCommand() {
        assertThat(ProjectFacts.role("./mvnw -B verify")).isEqualTo(ProjectFacts.TEST_ROLE);
        assertThat(ProjectFacts.role("mvn -q package -DskipTests")).isEqualTo(ProjectFacts.BUILD_ROLE);
        assertThat(ProjectFacts.role("cd app && mix phx.server")).isEqualTo(ProjectFacts.RUN_ROLE);
        assertThat(ProjectFacts.role("CI=1 pnpm test")).isEqualTo(ProjectFacts.TEST_ROLE);
        assertThat(ProjectFacts.role("cargo build --release")).isEqualTo(ProjectFacts.BUILD_ROLE);
        assertThat(ProjectFacts.role("git commit -m \"make test faster\"")).isNull();
        assertThat(ProjectFacts.role("ls -la")).isNull();
    }

    private static Run run(String id, String session, int minute, String command) {
        return new Run(id, session, T.plusMinutes(minute), command, "{\"stdout\":\"ok\"}");
    }

    private static Edit edit(String id, String session, int minute, String file) {
        return new Edit(id, session, T.plusMinutes(minute), file);
    }

}
