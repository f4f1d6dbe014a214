package dev.codememory.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HookCommandTests {

    @Test
    void onlyPromptAndSessionStartLinesMayInject() {
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"UserPromptSubmit\"}}"))
                .isTrue();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"SessionStart\"}}")).isTrue();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"PostToolUse\"}}")).isFalse();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"error\":\"invalid JSON\",\"raw\":\"x\"}")).isFalse();
    }
}
