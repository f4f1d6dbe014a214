package dev.codememory.jobs;

import static dev.codememory.jobs.JobsJar.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as people meet it: help everywhere, exit codes, plain output, and a
 * hook that stays JDK-only.
 */
class CliIntegrationTests {

    private static final List<String> COMMANDS = List.of("hook", "import", "query", "search", "show", "tasks", "task",
            "blocked", "forget", "stats", "history", "export", "share", "install", "uninstall", "serve", "demo",
            "viewer");

    @TempDir
    Path home;

    @Test
    void everyCommandHasHelpAndTheTopLevelListsThemWithTheExitCodes() throws Exception {
        JobsJar.Result top = JobsJar.run(home, new byte[0], "--help");

        assertThat(top.exit()).isZero();
        for (String command : COMMANDS) {
            assertThat(top.stdout()).as(command).containsPattern("\n  (query, )?" + command + "[ ,]");
            JobsJar.Result help = JobsJar.run(home, new byte[0], command, "--help");
            assertThat(help.exit()).as(command).isZero();
            assertThat(help.stdout()).as(command).contains("Usage: java -jar jobs.jar ");
        }
        assertThat(top.stdout()).contains("Exit codes:", "3  busy")
            .as("bench and eval are commands of bench.jar, not of the product")
            .doesNotContainPattern("\n  (bench|eval) ");
    }

    @Test
    void badUsageExitsTwoWithTheReason() throws Exception {
        JobsJar.Result unknown = JobsJar.run(home, new byte[0], "frobnicate");
        JobsJar.Result noText = JobsJar.run(home, new byte[0], "query");
        JobsJar.Result twoWays = JobsJar.run(home, new byte[0], "forget", "--session", "s", "--match", "x");
        JobsJar.Result badFormat = JobsJar.run(home, new byte[0], "export", "--format", "pdf");

        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.stderr()).contains("unknown command or option: frobnicate");
        assertThat(noText.exit()).isEqualTo(2);
        assertThat(noText.stderr()).contains("query needs TEXT");
        assertThat(twoWays.exit()).isEqualTo(2);
        assertThat(twoWays.stderr()).contains("forget needs exactly one of");
        assertThat(badFormat.exit()).isEqualTo(2);
        assertThat(badFormat.stderr()).contains("Invalid value for option '--format'");
    }

    @Test
    void aJobShowsItsStagesInPlainWordsWithoutFrameworkLogLines() throws Exception {
        JobsJar.Result graduate = JobsJar.run(home, new byte[0], "--job=graduate");

        assertThat(graduate.exit()).as(graduate.stderr()).isZero();
        assertThat(graduate.stdout()).startsWith("graduate:\n  seal spool ")
            .contains("\n  ingest spool ", "\n  extract candidates ", "\n  embed memories ", "\ngraduate completed in ",
                    ": 0 events (+0), 0 sessions (+0), 0 memories (+0)\n", "nothing has been captured yet",
                    "java -jar jobs.jar demo")
            .doesNotContain(" INFO ", " WARN ", "o.s.", "JobRunListener", "HikariPool");
        assertThat(graduate.stderr()).doesNotContain(" INFO ", "o.s.");
        assertThat(home.resolve("logs/jobs.log")).content().contains("step embedMemoriesStep: COMPLETED");

        JobsJar.Result verbose = JobsJar.run(home, new byte[0], "--job=ingest", "--verbose");
        assertThat(verbose.exit()).isZero();
        assertThat(verbose.stdout()).contains("JobRunListener", "step ingestSpoolStep: COMPLETED");
    }

    @Test
    void theHookLoadsNoCommandLineLibraryAndNoSpring() throws Exception {
        List<String> command = new ArrayList<>(List.of(JobsJar.java(),
                "-Xlog:class+load=info:file=" + home.resolve("classes.txt"), "-jar", JobsJar.JAR.toString(), "hook"));
        String event = "{\"session_id\":\"s\",\"cwd\":\"/tmp\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"ls\"},\"tool_response\":{\"stdout\":\"a\"}}";

        JobsJar.Result hook = JobsJar.run(home, utf8(event), command);

        assertThat(hook.exit()).isZero();
        assertThat(hook.stdout()).isEmpty();
        String loaded = java.nio.file.Files.readString(home.resolve("classes.txt"));
        assertThat(loaded).contains("dev.codememory.jobs.hook.HookCommand")
            .doesNotContain("picocli.", "org.springframework.", "dev.codememory.jobs.Cli ", "org.duckdb.");
    }

}
