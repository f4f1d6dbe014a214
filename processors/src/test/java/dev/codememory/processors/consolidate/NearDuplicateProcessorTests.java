package dev.codememory.processors.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate.Supersession;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SimilarEntries;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NearDuplicateProcessorTests {

    private static final LocalDateTime T = LocalDateTime.parse("2026-03-02T09:00:00");

    /** Three wordings of one claim, oldest first. */
    private static final EntryDraft OLDER = fact("old", "The API runs on port 8080 behind nginx",
            "The API runs on port 8080 behind nginx.");

    private static final EntryDraft NEWER = fact("new", "The API runs on port 8080 behind nginx now",
            "The API runs on port 8080 behind nginx now.");

    private static final EntryDraft NEWEST = fact("newest", "The API runs on port 8080 behind nginx today",
            "The API runs on port 8080 behind nginx today.");

    @Test
    void aClaimThatRepeatsAnOlderOneSupersedesIt() {
        EntryDraft other = fact("other", "The database is PostgreSQL 16", "The database is PostgreSQL 16.");

        assertThat(new NearDuplicateProcessor((e, superseded) -> List.of(OLDER, other)).process(NEWER).supersessions())
            .containsExactly(new Supersession("old", "new", 0.889));
    }

    @Test
    void aBehaviourFactSupersedesTheOlderFactOfItsRoleWhateverTheWording() {
        EntryDraft older = fact("old", "Test command: `npm test`", "The tests run with `npm test` (5 runs).");
        EntryDraft build = fact("build", "Build command: `npm run build`", "The project builds with `npm run build`.");
        EntryDraft newer = fact("new", "Test command: `npx vitest run`",
                "The tests run with `npx vitest run` (3 runs).");

        assertThat(new NearDuplicateProcessor((e, superseded) -> List.of(older, build)).process(newer).supersessions())
            .extracting(Supersession::olderId)
            .containsExactly("old");
        assertThat(NearDuplicateProcessor.role(newer)).isEqualTo("Test command: ");
        assertThat(NearDuplicateProcessor.role(fact("x", "The build is fast", "b"))).isEmpty();
    }

    @Test
    void anEntryDoesNotSeeAsActiveWhatAnEntryBeforeItSuperseded() {
        List<Set<String>> given = new ArrayList<>();
        NearDuplicateProcessor processor = new NearDuplicateProcessor((e, superseded) -> {
            given.add(Set.copyOf(superseded));
            // the table still shows "old" active: the chunk is not written yet
            List<EntryDraft> before = e == NEWER ? List.of(OLDER) : List.of(OLDER, NEWER);
            return before.stream().filter(o -> !superseded.contains(o.entryId())).toList();
        });

        assertThat(processor.process(NEWER).supersessions()).extracting(Supersession::olderId).containsExactly("old");
        assertThat(processor.process(NEWEST).supersessions()).extracting(Supersession::olderId).containsExactly("new");
        assertThat(given).containsExactly(Set.of(), Set.of("old"));
    }

    @Test
    void anEntryHandledAfterNewerOnesIsSupersededByTheOldestThatRepeatsIt() {
        EntryDraft unrelated = fact("other", "The database is PostgreSQL 16", "The database is PostgreSQL 16.");
        NearDuplicateProcessor processor = new NearDuplicateProcessor(new SimilarEntries() {
            @Override
            public List<EntryDraft> olderCandidates(EntryDraft entry, Set<String> superseded) {
                return List.of();
            }

            @Override
            public List<EntryDraft> newerCandidates(EntryDraft entry, Set<String> superseded) {
                return List.of(unrelated, NEWER, NEWEST);
            }
        });

        assertThat(processor.process(OLDER).supersessions()).containsExactly(new Supersession("old", "new", 0.889));
    }

    private static EntryDraft fact(String id, String title, String body) {
        return new EntryDraft(id, "c" + id, CandidateKind.FACT, "/p", "s", T, title, body, null, "k" + id,
                List.of(new Quote("ev", "prompt", body)));
    }

}
