package dev.codememory.processors.turns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Turn;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryTalkTests {

    private static final String SESSION = "s-1";

    @Test
    void recognisesTheMemoryToolsUnderEveryServerName() {
        assertThat(MemoryTalk.isMemoryTool("mcp__code-memory__mem-search")).isTrue();
        assertThat(MemoryTalk.isMemoryTool("mcp__plugin_code-memory_code-memory__mem-save")).isTrue();
        assertThat(MemoryTalk.isMemoryTool("mcp__github__search_code")).isFalse();
        assertThat(MemoryTalk.isMemoryTool("mem-search")).isFalse();
        assertThat(MemoryTalk.isMemoryTool("Bash")).isFalse();
        assertThat(MemoryTalk.isWork("ToolSearch")).isFalse();
        assertThat(MemoryTalk.isWork("Read")).isTrue();
    }

    @Test
    void aReplyCitingAMemoryEchoesIt() {
        assertThat(MemoryTalk.echoes("We added it because of the 429 storm [mem:Ab3_x-].")).isTrue();
        assertThat(MemoryTalk.echoes("See mem:Ab3_x- and mem:Zz9999")).isTrue();
        assertThat(MemoryTalk.echoes("We added it because of the 429 storm.")).isFalse();
        assertThat(MemoryTalk.echoes("remem:abcdef is not one, nor is mem:abcdefgh")).isFalse();
        assertThat(MemoryTalk.echoes(null)).isFalse();
    }

    @Test
    void turnsThatOnlyAskTheMemoryAreAboutIt() {
        List<Turn> turns = List.of(turn("t1", "10:00", "where were we?", "We were adding the rate limiter."),
                turn("t2", "10:01", "Why did we add the rate limiter?",
                        "Because the API got a 429 storm [mem:Ab3_x-]."),
                turn("t3", "10:02", "Search the memory for the retry decision", "Found it."),
                turn("t4", "10:03", "Where were we? Then run the tests", "Ran them."),
                turn("t5", "10:04", "What is a token bucket?", "A rate limiting algorithm."),
                turn("t6", "10:05", "/code-memory:memory-search rate limiter", "Noted."));
        List<Observation> observations = List.of(tool("o1", "10:02:10", "ToolSearch"),
                tool("o2", "10:02:20", "mcp__code-memory__mem-search"), tool("o3", "10:03:10", "Bash"));

        assertThat(MemoryTalk.turnsAboutMemory(turns, observations)).containsExactlyInAnyOrder("t1", "t2", "t3", "t6");
        assertThat(MemoryTalk.works(turns, observations)).isTrue();
        assertThat(MemoryTalk.works(turns.subList(0, 3), observations.subList(0, 2))).isFalse();
        assertThat(MemoryTalk.works(List.of(turns.get(4)), List.of())).isTrue();
    }

    @Test
    void aSessionOfPickUpAndAcknowledgementsDoesNotWork() {
        List<Turn> turns = List.of(turn("t1", "10:00", "where were we?", "The limiter is half done."),
                turn("t2", "10:01", "ok thanks", "You are welcome."));

        assertThat(MemoryTalk.works(turns, List.of())).isFalse();
        assertThat(MemoryTalk.works(List.of(), List.of())).isFalse();
        assertThat(MemoryTalk.works(List.of(), List.of(tool("o1", "09:00", "Edit")))).isTrue();
    }

    @Test
    void aSavedStatementIsAboutTheMemoryWhateverItSays() {
        Turn saved = new Turn("t1", "mem-save-1", "p", "e1", "We always squash-merge pull requests", null, null, null,
                at("10:00"), null);

        assertThat(MemoryTalk.isSaveSession("mem-save-1")).isTrue();
        assertThat(MemoryTalk.turnsAboutMemory(List.of(saved), List.of())).containsExactly("t1");
        assertThat(MemoryTalk.works(List.of(saved), List.of())).isFalse();
    }

    private static Turn turn(String id, String time, String prompt, String reply) {
        return new Turn(id, SESSION, "p", "e-" + id, prompt, "r-" + id, reply, "stop", at(time),
                at(time).plusSeconds(5));
    }

    private static Observation tool(String id, String time, String tool) {
        return new Observation(id, SESSION, "p", tool, List.of(), null, false, null, null, at(time), "{}", "{}");
    }

    private static LocalDateTime at(String time) {
        return LocalDateTime.parse("2026-11-20T" + (time.length() == 5 ? time + ":00" : time));
    }

}
