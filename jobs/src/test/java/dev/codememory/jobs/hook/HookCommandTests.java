package dev.codememory.jobs.hook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HookCommandTests {

    @TempDir
    Path tmp;

    @Test
    void onlyPromptAndSessionStartLinesMayInject() {
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"UserPromptSubmit\"}}"))
            .isTrue();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"SessionStart\"}}")).isTrue();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"event\":{\"hook_event_name\":\"PostToolUse\"}}")).isFalse();
        assertThat(HookCommand.mayInject("{\"spool\":1,\"error\":\"invalid JSON\",\"raw\":\"x\"}")).isFalse();
    }

    /**
     * The provider the hook names to skip the service lookup is the JDK's own default
     * here: a JDK that renamed it would make the hook fail to reach serve.
     */
    @Test
    void theSelectorProviderTheHookNamesIsTheJdksDefault() {
        String named = HookCommand.defaultSelectorProvider(System.getProperty("os.name"));
        org.junit.jupiter.api.Assumptions.assumeTrue(named != null, "a system the hook names no provider for");

        assertThat(java.nio.channels.spi.SelectorProvider.provider().getClass().getName()).isEqualTo(named);
        assertThat(HookCommand.defaultSelectorProvider("Windows 11")).isNull();
    }

    /**
     * The property is the one {@code SelectorProvider.provider()} reads, so that the
     * hook's first socket skips the service lookup.
     */
    @Test
    void theHookNamesTheProviderInThePropertyTheJdkReads() {
        String named = HookCommand.defaultSelectorProvider(System.getProperty("os.name"));
        org.junit.jupiter.api.Assumptions.assumeTrue(named != null, "a system the hook names no provider for");
        String key = "java.nio.channels.spi.SelectorProvider";
        String before = System.getProperty(key);
        System.clearProperty(key);
        try {
            HookCommand.nameTheSelectorProvider();

            assertThat(System.getProperty(key)).isEqualTo(named);
        }
        finally {
            if (before == null) {
                System.clearProperty(key);
            }
            else {
                System.setProperty(key, before);
            }
        }
    }

    @Test
    void onlyEventsNamedPromptOrSessionStartConnectAhead() {
        assertThat(HookCommand.mayAsk("{\"hook_event_name\": \"UserPromptSubmit\", \"prompt\": \"x\"}")).isTrue();
        assertThat(HookCommand.mayAsk("{\"hook_event_name\":\"SessionStart\",\"source\":\"resume\"}")).isTrue();
        assertThat(HookCommand.mayAsk("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\"}")).isFalse();
    }

    @Test
    void theHookLogIsOwnerOnlyAndMovesAsideOnceItPassesItsLimit() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(tmp);
        Path log = home.logs().resolve("hook.log");

        HookCommand.HookLog.info(home, "first");
        assertThat(Files.readString(log)).endsWith(" INFO first\n");
        assertThat(Files.getPosixFilePermissions(log)).isEqualTo(PosixFilePermissions.fromString("rw-------"));

        Files.writeString(log, "x".repeat((int) HookCommand.HookLog.MAX_BYTES + 1));
        HookCommand.HookLog.error(home, "where", new IllegalStateException("boom"));

        assertThat(Files.size(log.resolveSibling("hook.log.1"))).isEqualTo(HookCommand.HookLog.MAX_BYTES + 1);
        assertThat(Files.readString(log)).contains(" ERROR where pid=")
            .endsWith("java.lang.IllegalStateException: boom\n")
            .hasLineCount(1);
        assertThat(Files.getPosixFilePermissions(log)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

}
