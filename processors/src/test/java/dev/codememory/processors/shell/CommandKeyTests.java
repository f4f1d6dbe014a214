package dev.codememory.processors.shell;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommandKeyTests {

    @Test
    void sameCommandRunFromAnotherDirectoryAndTrimmedOutputIsTheSame() {
        assertThat(CommandKey.normalize("cd /a/b && mix compile 2>&1 | head -50")).isEqualTo("mix compile");
        assertThat(CommandKey.normalize("mix compile")).isEqualTo("mix compile");
    }

    @Test
    void differentFlagsAreDifferentCommands() {
        assertThat(CommandKey.normalize("mix test")).isNotEqualTo(CommandKey.normalize("mix test --trace"));
        assertThat(CommandKey.normalize("mix test --trace")).isEqualTo("mix test --trace");
    }

    @Test
    void collapsesWhitespaceRuns() {
        assertThat(CommandKey.normalize("  mix   test\n\t --trace  ")).isEqualTo("mix test --trace");
    }

    @Test
    void dropsEveryLeadingCdFollowedByACommand() {
        assertThat(CommandKey.normalize("cd \"/work/my repo\"; cd sub && npm test")).isEqualTo("npm test");
        assertThat(CommandKey.normalize("cd /work/repo")).isEqualTo("cd /work/repo");
        assertThat(CommandKey.normalize("cd /work/repo || exit 1")).isEqualTo("cd /work/repo || exit 1");
        assertThat(CommandKey.normalize("cd a b && ls")).isEqualTo("cd a b && ls");
        assertThat(CommandKey.normalize("(cd sub && make) | tail -5")).isEqualTo("(cd sub && make)");
    }

    @Test
    void dropsLeadingTimeout() {
        assertThat(CommandKey.normalize("timeout 60 mix test")).isEqualTo("mix test");
        assertThat(CommandKey.normalize("cd /r && timeout 30s ./gradlew test 2>&1 | tail -20; echo $?"))
            .isEqualTo("./gradlew test");
        assertThat(CommandKey.normalize("timeout 5")).isEqualTo("timeout 5");
        assertThat(CommandKey.normalize("timeout -s KILL 5 make")).isEqualTo("timeout -s KILL 5 make");
    }

    @Test
    void dropsTrailingEchoes() {
        assertThat(CommandKey.normalize("mix test; echo \"exit: $?\"")).isEqualTo("mix test");
        assertThat(CommandKey.normalize("mix test && echo done")).isEqualTo("mix test");
        assertThat(CommandKey.normalize("mix test; echo done")).isEqualTo("mix test; echo done");
        assertThat(CommandKey.normalize("mix test || echo failed")).isEqualTo("mix test || echo failed");
    }

    @Test
    void keepsEverythingElseVerbatim() {
        assertThat(CommandKey.normalize("MIX_ENV=test mix test | grep -v warning"))
            .isEqualTo("MIX_ENV=test mix test | grep -v warning");
        assertThat(CommandKey.normalize("mix test 2>&1 | grep error | head -5"))
            .isEqualTo("mix test 2>&1 | grep error");
        assertThat(CommandKey.normalize("ls 2>/dev/null")).isEqualTo("ls 2>/dev/null");
        assertThat(CommandKey.normalize("grep \"x && echo y\" f | tail")).isEqualTo("grep \"x && echo y\" f");
    }

    @Test
    void keepsATrailingPartWhenAHereDocumentBodyFollowsIt() {
        assertThat(CommandKey.normalize("cat <<EOF | head -3\nbody\nEOF\n")).isEqualTo("cat <<EOF | head -3 body EOF");
        assertThat(CommandKey.normalize("cat <<EOF > f.txt && echo ok\nbody\nEOF"))
            .isEqualTo("cat <<EOF > f.txt && echo ok body EOF");
    }

    @Test
    void blankOrMissingCommandIsEmpty() {
        assertThat(CommandKey.normalize(null)).isEmpty();
        assertThat(CommandKey.normalize(" \n ")).isEmpty();
        assertThat(CommandKey.normalize("# just a comment")).isEqualTo("# just a comment");
    }

}
