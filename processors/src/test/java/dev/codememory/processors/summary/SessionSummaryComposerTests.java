package dev.codememory.processors.summary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.Quote;
import dev.codememory.config.summary.SessionMaterial.Item;
import dev.codememory.config.summary.SessionMaterial;
import dev.codememory.config.summary.SessionSummary;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionSummaryComposerTests {

    private static final LocalDateTime START = LocalDateTime.parse("2025-06-08T18:36:38");

    private static final LocalDateTime END = LocalDateTime.parse("2025-06-08T21:40:00");

    private final SessionSummaryComposer composer = new SessionSummaryComposer();

    @Test
    void everyLineCitesTheMemoryItRestsOn() {
        SessionSummary summary = composer.compose(
                material(List.of(item("Where were we?", "", 1), item("Move the collectors into domains/events", "", 2)),
                        List.of(item("Add shell-based file event collector", "", 3)),
                        List.of(item("Create connectors directory structure", "", 4)),
                        List.of(item("Fixed `mix compile`: warning: variable \"default\" is unused", "", 5)),
                        List.of(item("Keep the collector append-only", "", 6)),
                        List.of(item("Create GitHub issues for future collector work", "pending", 7)),
                        List.of(item("domains/events/collector.sh", "4 edits", 8), item("README.md", "", 9))));

        assertThat(summary.body()).isEqualTo("""
                Goal: Move the collectors into domains/events [mem:c2]
                Done:
                - Committed: Add shell-based file event collector [mem:c3]
                - Completed: Create connectors directory structure [mem:c4]
                - Fixed `mix compile`: warning: variable "default" is unused [mem:c5]
                Decided:
                - Keep the collector append-only [mem:c6]
                Left open:
                - Create GitHub issues for future collector work (pending) [mem:c7]
                Changed: domains/events/collector.sh (4 edits) [mem:c8], README.md [mem:c9]""");
        assertThat(summary.title()).isEqualTo("Session 2025-06-08: Move the collectors into domains/events");
        assertThat(summary.summarizes()).containsExactly("m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9");
        assertThat(summary.quotes()).extracting(Quote::eventId)
            .containsExactly("ev2", "ev3", "ev4", "ev5", "ev6", "ev7", "ev8", "ev9");
        assertThat(summary.ts()).isEqualTo(END);
        assertThat(summary.entryId()).matches("ent_[0-9a-f]{32}");
    }

    @Test
    void aLongSessionIsCutToTwelveHundredCharactersSayingHowManyItShows() {
        List<Item> work = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            work.add(
                    item("Commit number " + i + " of a long afternoon of small refactorings in the cart", "", 100 + i));
        }
        List<Item> open = List.of(item("Rate-limit the login endpoint", "pending", 200));

        SessionSummary summary = composer.compose(material(List.of(item("Refactor the cart", "", 1)), work, List.of(),
                List.of(), List.of(), open, List.of(item("src/cart.ts", "30 edits", 300))));

        assertThat(summary.body().length()).isLessThanOrEqualTo(SessionSummaryComposer.MAX_CHARS);
        assertThat(summary.body()).startsWith("Goal: Refactor the cart [mem:c1]\nDone (")
            .contains(" of 30):\n")
            .endsWith("Changed: src/cart.ts (30 edits) [mem:c300]");
        assertThat(summary.body().lines().filter(line -> !line.endsWith(":")))
            .allSatisfy(line -> assertThat(line).containsPattern("\\[mem:c\\d+]"));
    }

    @Test
    void aSessionThatLeftNothingHasNoSummary() {
        assertThat(
                composer.compose(material(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of())))
            .isNull();
    }

    @Test
    void aGrownSessionGetsANewSummaryId() {
        SessionMaterial before = material(List.of(item("Refactor the cart", "", 1)), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        SessionMaterial after = new SessionMaterial(before.sessionId(), before.project(), START, END, 99,
                before.goals(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());

        assertThat(composer.compose(after).entryId()).isNotEqualTo(composer.compose(before).entryId());
    }

    private static SessionMaterial material(List<Item> goals, List<Item> work, List<Item> completed, List<Item> fixes,
            List<Item> decisions, List<Item> open, List<Item> changed) {
        return new SessionMaterial("76e41f36", "/home/dev/athena", START, END, 42, goals, work, completed, fixes,
                decisions, open, changed);
    }

    private static Item item(String text, String detail, int n) {
        return new Item(text, detail, "m" + n, "mem:c" + n, new Quote("ev" + n, "prompt", text));
    }

}
