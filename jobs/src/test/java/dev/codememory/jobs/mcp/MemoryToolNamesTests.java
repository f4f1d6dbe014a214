package dev.codememory.jobs.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.processors.turns.MemoryTalk;
import org.junit.jupiter.api.Test;

class MemoryToolNamesTests {

    @Test
    void everyToolOfTheServerIsOneGraduationKnowsAsTheMemorysOwn() {
        assertThat(ToolCatalog.TOOLS).extracting(ToolCatalog.Tool::name)
            .containsExactlyInAnyOrderElementsOf(MemoryTalk.MEMORY_TOOLS)
            .allSatisfy(name -> assertThat(MemoryTalk.isMemoryTool("mcp__code-memory__" + name)).isTrue());
    }

}
