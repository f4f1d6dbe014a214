package dev.codememory.config.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EndlessModeTests {

    @TempDir
    Path dir;

    @Test
    void offUntilEnabledThenOffAgainInAnOwnerOnlyFile() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(dir.resolve("home"));
        assertThat(EndlessMode.enabled(home)).isFalse();

        EndlessMode.set(home, true);
        assertThat(EndlessMode.enabled(home)).isTrue();
        assertThat(Files.readString(EndlessMode.file(home))).isEqualTo("enabled\n");
        assertThat(Files.getPosixFilePermissions(EndlessMode.file(home)))
            .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));

        EndlessMode.set(home, false);
        assertThat(EndlessMode.enabled(home)).isFalse();
        assertThat(Files.exists(home.root().resolve("endless.next"))).isFalse();
    }

    @Test
    void anythingButEnabledIsOff() throws Exception {
        CodeMemoryHome home = new CodeMemoryHome(dir).ensureCreated();
        Files.writeString(EndlessMode.file(home), "yes please\n");
        assertThat(EndlessMode.enabled(home)).isFalse();
    }

}
