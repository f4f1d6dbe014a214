package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RealLengthMemoriesTests {

    @Test
    void drawsLengthsWithTheRealPercentiles() {
        SplittableRandom random = new SplittableRandom(1);
        int[] prompts = new int[20_000];
        int[] replies = new int[20_000];
        for (int i = 0; i < prompts.length; i++) {
            prompts[i] = RealLengthMemories.draw(random, RealLengthMemories.PROMPT);
            replies[i] = RealLengthMemories.draw(random, RealLengthMemories.REPLY);
        }
        Arrays.sort(prompts);
        Arrays.sort(replies);

        assertThat(prompts[10_000]).isBetween(80, 92); // p50 86
        assertThat(prompts[18_000]).isBetween(400, 470); // p90 436
        assertThat(replies[10_000]).isBetween(490, 560); // p50 524
        assertThat(replies[5_000]).isBetween(160, 185); // p25 172
    }

    @Test
    void mixesKindsLikeARealQueueAndKeepsEachExchangesReplyFindable() {
        List<RealLengthMemories.Memory> memories = RealLengthMemories.generate(5_000, 7);
        Map<String, Long> kinds = memories.stream()
            .collect(Collectors.groupingBy(RealLengthMemories.Memory::kind, Collectors.counting()));

        assertThat(memories).hasSize(5_000).isEqualTo(RealLengthMemories.generate(5_000, 7));
        assertThat(kinds.get("exchange")).isBetween(2_500L, 2_800L);
        assertThat(kinds.get("task")).isBetween(1_250L, 1_550L);
        assertThat(kinds.get("work")).isBetween(650L, 900L);
        assertThat(kinds.get("summary")).isBetween(100L, 220L);
        for (RealLengthMemories.Memory m : memories) {
            if (m.kind().equals("exchange")) {
                assertThat(m.body()).contains("\n\n" + m.replyQuote());
                assertThat(m.body()).startsWith(m.title().replace("…", ""));
            }
        }
        assertThat(memories.stream().map(RealLengthMemories.Memory::body).map(String::length).sorted().toList())
            .element(2_500, org.assertj.core.api.InstanceOfAssertFactories.INTEGER)
            .isBetween(150, 700);
    }

}
