package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchMainTests {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return BenchMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void withoutACommandPrintsBothCommandsAndIsAUsageError() {
        assertThat(run()).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("bench.jar").contains("bench ").contains("eval ");
    }

    @Test
    void evalWithoutADevSetIsAUsageErrorNotAFailure() {
        assertThat(run("eval")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Missing required option: '--dev=DIR'");
    }

    @Test
    void evalOnAFolderThatIsNoDevSetSaysSoBeforeLaunchingAnything() {
        assertThat(run("eval", "--dev", tmp.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--dev " + tmp + " is not a dev set");
    }

    @Test
    void aJarThatIsNotThereIsAUsageError() {
        Path missing = tmp.resolve("jobs.jar");

        assertThat(run("bench", "--jar", missing.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no jobs.jar at " + missing).contains("--jar");
    }

    @Test
    void theDefaultJarIsTheOneThisCloneBuilds() {
        // the tests run in bench/, from bench/target/test-classes and
        // bench/target/classes
        Path clone = Path.of("").toAbsolutePath().getParent();

        assertThat(ProductJar.besideThisBuild()).isEqualTo(clone.resolve("jobs/target/jobs.jar"));
    }

}
