package dev.codememory.config.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeMemoryHomeTests {

    @TempDir
    Path tmp;

    @Test
    void systemPropertyWinsOverEnvironment() {
        CodeMemoryHome home = CodeMemoryHome.resolve(Map.of("CODE_MEMORY_HOME", "/from/env"), "/from/property");

        assertThat(home.root()).isEqualTo(Path.of("/from/property"));
    }

    @Test
    void environmentWinsOverDefault() {
        CodeMemoryHome home = CodeMemoryHome.resolve(Map.of("CODE_MEMORY_HOME", "/from/env"), null);

        assertThat(home.root()).isEqualTo(Path.of("/from/env"));
    }

    @Test
    void blankPropertyFallsBackToEnvironment() {
        CodeMemoryHome home = CodeMemoryHome.resolve(Map.of("CODE_MEMORY_HOME", "/from/env"), "  ");

        assertThat(home.root()).isEqualTo(Path.of("/from/env"));
    }

    @Test
    void defaultIsDotCodeMemoryInUserHome() {
        Path expected = Path.of(System.getProperty("user.home"), ".code-memory").toAbsolutePath().normalize();

        assertThat(CodeMemoryHome.resolve(Map.of(), null).root()).isEqualTo(expected);
        assertThat(CodeMemoryHome.resolve(Map.of("CODE_MEMORY_HOME", ""), "").root()).isEqualTo(expected);
    }

    @Test
    void defaultFollowsHomeFromTheEnvironment() {
        assertThat(CodeMemoryHome.resolve(Map.of("HOME", "/sandbox/home"), null).root())
            .isEqualTo(Path.of("/sandbox/home/.code-memory"));
        assertThat(
                CodeMemoryHome.resolve(Map.of("HOME", "/sandbox/home", "CODE_MEMORY_HOME", "/from/env"), null).root())
            .isEqualTo(Path.of("/from/env"));
    }

    @Test
    void rootIsMadeAbsoluteAndNormalized() {
        CodeMemoryHome home = CodeMemoryHome.resolve(Map.of(), "rel/./x/../home");

        assertThat(home.root()).isEqualTo(Path.of("").toAbsolutePath().resolve("rel/home"));
        assertThat(new CodeMemoryHome(Path.of("/a/b/../c")).root()).isEqualTo(Path.of("/a/c"));
        assertThatThrownBy(() -> new CodeMemoryHome(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void namesItsFilesUnderTheRoot() {
        CodeMemoryHome home = new CodeMemoryHome(Path.of("/h"));

        assertThat(home.spool()).isEqualTo(Path.of("/h/spool"));
        assertThat(home.sealedSpool()).isEqualTo(Path.of("/h/spool/sealed"));
        assertThat(home.logs()).isEqualTo(Path.of("/h/logs"));
        assertThat(home.database()).isEqualTo(Path.of("/h/memory.duckdb"));
        assertThat(home.batchMetadata()).isEqualTo(Path.of("/h/batch-metadata.sqlite"));
        assertThat(home.jobLock()).isEqualTo(Path.of("/h/jobs.lock"));
        assertThat(home.tmp()).isEqualTo(Path.of("/h/tmp"));
    }

    @Test
    void ensureCreatedMakesOwnerOnlyFolders() throws IOException {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));

        assertThat(home.ensureCreated()).isSameAs(home);

        for (Path dir : new Path[] { home.root(), home.spool(), home.sealedSpool(), home.logs() }) {
            assertThat(dir).as(dir.toString()).isDirectory();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).as(dir.toString())
                .isEqualTo("rwx------");
        }
        assertThat(home.tmp()).doesNotExist();
    }

    @Test
    void ensureCreatedTightensExistingFolders() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("home/spool"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home"));

        home.ensureCreated();
        home.ensureCreated();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.spool()))).isEqualTo("rwx------");
    }

    @Test
    void createPrivateFileIsOwnerReadWriteOnly() throws IOException {
        Path file = tmp.resolve("new.lock");

        CodeMemoryHome.createPrivateFile(file);

        assertThat(file).isRegularFile().isEmptyFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(CodeMemoryHome.filePermissions()).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void createPrivateFileKeepsContentOfExistingFileAndTightensIt() throws IOException {
        Path file = Files.writeString(tmp.resolve("existing"), "kept");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        CodeMemoryHome.createPrivateFile(file);

        assertThat(file).hasContent("kept");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void restrictPermissionsFixesFilesAndFoldersUnderTheHome() throws IOException {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("home")).ensureCreated();
        Path file = Files.writeString(home.root().resolve("memory.duckdb.wal"), "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Path dir = Files.createDirectories(home.root().resolve("native/cache"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path nested = Files.writeString(dir.resolve("blob"), "y");
        Files.setPosixFilePermissions(nested, PosixFilePermissions.fromString("rw-rw-rw-"));

        home.restrictPermissions();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested))).isEqualTo("rw-------");
        assertThat(file).hasContent("x");
    }

    @Test
    void restrictPermissionsOnMissingHomeDoesNothing() {
        CodeMemoryHome home = new CodeMemoryHome(tmp.resolve("absent"));

        home.restrictPermissions();

        assertThat(home.root()).doesNotExist();
    }

}
