package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that open the database while {@code serve} holds it ({@code stats},
 * {@code history}, {@code export}, {@code forget}): carried out by serve with the same
 * output and exit codes as on their own, relative paths resolved against the caller's
 * directory; and without serve, two readers started together (as
 * {@code /code-memory:memory-status} starts {@code stats} and {@code history}) both
 * answer, while a reader that finds the database held for longer gives up busy, naming
 * the holder.
 */
class ServeCommandsIntegrationTests {

    private static final String FIXTURE_DIR = "/tmp/code-memory-fixture";

    @TempDir
    Path tmp;

    @Test
    void commandsThatOpenTheDatabaseRunInServeWithTheSameOutput() throws Exception {
        Path home = graduatedHome();
        Path project = tmp.resolve("shop-api");
        Path twin = tmp.resolve("twin");
        copy(home, twin); // forgets the same memory without serve, to compare with

        // on their own, with the database free
        JobsJar.Result stats = JobsJar.runIn(project, home, "stats");
        JobsJar.Result history = JobsJar.runIn(project, home, "history", "--project", ".");
        JobsJar.Result export = JobsJar.runIn(project, home, "export", "--format", "markdown", "-o", "own.md");
        JobsJar.Result dryRun = JobsJar.runIn(project, home, "forget", "--dry-run", "--match", "checkout");
        String session = (String) JobsJar.duckRows(home, "SELECT max(session_id) FROM events").get(0).get(0);
        JobsJar.Result distillDryRun = JobsJar.runIn(project, home, "distill", "--dry-run", "--min-session-tokens", "1",
                session);
        for (JobsJar.Result r : List.of(stats, history, export, dryRun, distillDryRun)) {
            assertThat(r.exit()).as(r.stderr()).isZero();
        }
        assertThat(history.stdout()).contains("session ").doesNotContain("no sessions");
        String citation = citation(JobsJar.runIn(project, home, "query", "checkout", "tests").stdout());
        JobsJar.Result forgotAlone = JobsJar.runIn(project, twin, "forget", citation);
        assertThat(forgotAlone.exit()).as(forgotAlone.stderr()).isZero();

        Path log = tmp.resolve("serve.log");
        // no schedule: nothing but the commands below changes the store meanwhile
        Process serve = JobsJar.start(home, log, "serve", "--code-memory.schedule.enabled=false");
        try {
            JobsJar.awaitWarm(home, serve, log);

            JobsJar.Result servedStats = JobsJar.runIn(project, home, "stats");
            assertThat(servedStats.exit()).as(servedStats.stderr()).isZero();
            // the disk line differs: serve's log grows, and the database is open
            assertThat(withoutDisk(servedStats.stdout())).isEqualTo(withoutDisk(stats.stdout()));
            assertThat(servedStats.stderr()).isEqualTo(stats.stderr());

            JobsJar.Result servedHistory = JobsJar.runIn(project, home, "history", "--project", ".");
            assertThat(servedHistory).isEqualTo(history);

            JobsJar.Result servedExport = JobsJar.runIn(project, home, "export", "--format", "markdown", "-o",
                    "served.md");
            assertThat(servedExport.exit()).as(servedExport.stderr()).isZero();
            assertThat(servedExport.stderr()).isEqualTo(export.stderr().replace("own.md", "served.md"));
            assertThat(project.resolve("served.md")).hasSameTextualContentAs(project.resolve("own.md"));

            JobsJar.Result servedDryRun = JobsJar.runIn(project, home, "forget", "--dry-run", "--match", "checkout");
            assertThat(servedDryRun).isEqualTo(dryRun);
            // what the distiller would send, while serve holds the database
            assertThat(distillDryRun.stdout()).contains("would send ~");
            assertThat(JobsJar.runIn(project, home, "distill", "--dry-run", "--min-session-tokens", "1", session))
                .isEqualTo(distillDryRun);

            JobsJar.Result forgot = JobsJar.runIn(project, home, "forget", citation);
            assertThat(forgot.exit()).as(forgot.stderr()).isZero();
            assertThat(forgot.stdout()).isEqualTo(forgotAlone.stdout().replace(twin.toString(), home.toString()));
            assertThat(forgot.stderr()).isEqualTo(forgotAlone.stderr());
            // serve's indexes no longer hold it: the next query through serve does not
            // find it
            JobsJar.Result after = JobsJar.runIn(project, home, "query", "checkout", "tests");
            assertThat(after.exit()).as(after.stderr()).isZero();
            assertThat(after.stdout()).doesNotContain(citation);
            JobsJar.Result unknown = JobsJar.runIn(project, home, "forget", citation);
            assertThat(unknown.exit()).isEqualTo(1);
            assertThat(unknown.stderr()).isEqualTo("unknown citation: " + citation + "\n");
            assertThat(JobsJar.runIn(project, home, "forget").exit()).isEqualTo(2);
            assertThat(serve.isAlive()).isTrue();
        }
        finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void readersStartedTogetherWithoutServeBothAnswer() throws Exception {
        Path home = ingestedHome();
        // a third reader (this test) keeps the database open meanwhile, so the two
        // commands surely overlap with a reader
        try (Connection reader = JobsJar.duck(home)) {
            CompletableFuture<JobsJar.Result> stats = start(home, "stats");
            CompletableFuture<JobsJar.Result> history = start(home, "history", "--all-projects");
            assertThat(stats.get().exit()).as(stats.get().stderr()).isZero();
            assertThat(history.get().exit()).as(history.get().stderr()).isZero();
            assertThat(stats.get().stdout()).contains("events      10 (");
            assertThat(history.get().stdout()).contains("no sessions yet");
        }
    }

    @Test
    void aReaderWaitsForAWriterThatLetsGoSoon() throws Exception {
        Path home = ingestedHome();
        CompletableFuture<JobsJar.Result> history;
        try (Connection writer = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"))) {
            history = start(home, "history", "--all-projects");
            Thread.sleep(4_000); // well after the command has tried, well inside its wait
        }
        assertThat(history.get().exit()).as(history.get().stderr()).isZero();
        assertThat(history.get().stdout()).contains("no sessions yet");
    }

    @Test
    void aReaderGivesUpBusyNamingTheProcessThatKeepsTheDatabase() throws Exception {
        Path home = ingestedHome();
        try (Connection held = DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"))) {
            JobsJar.Result history = JobsJar.run(home, new byte[0], "history");
            assertThat(history.exit()).isEqualTo(3);
            assertThat(history.stderr()).contains("is in use by process " + ProcessHandle.current().pid());
        }
    }

    /** The jar started now on a thread of its own. */
    private static CompletableFuture<JobsJar.Result> start(Path home, String... args) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return JobsJar.run(home, new byte[0], args);
            }
            catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, runnable -> new Thread(runnable).start());
    }

    private Path ingestedHome() throws Exception {
        Path home = tmp.resolve("home");
        importFixture(home);
        JobsJar.Result ingested = JobsJar.run(home, new byte[0], "--job=ingest");
        assertThat(ingested.exit()).as(ingested.stderr()).isZero();
        return home;
    }

    private Path graduatedHome() throws Exception {
        Path home = tmp.resolve("home");
        importFixture(home);
        JobsJar.Result graduated = JobsJar.run(home, new byte[0], "--job=graduate");
        assertThat(graduated.exit()).as(graduated.stderr()).isZero();
        return home;
    }

    private void importFixture(Path home) throws Exception {
        Files.createDirectories(tmp.resolve("shop-api/.git"));
        String hooks = new String(getClass().getResourceAsStream("/fixtures/claude-code-session.jsonl").readAllBytes(),
                StandardCharsets.UTF_8)
            .replace(FIXTURE_DIR, tmp.toString());
        Files.writeString(tmp.resolve("hooks.jsonl"), hooks);
        assertThat(JobsJar.run(home, new byte[0], "import", "--hooks", tmp.resolve("hooks.jsonl").toString()).exit())
            .isZero();
    }

    private static String citation(String queryOutput) {
        Matcher m = Pattern.compile("\\[(mem:[A-Za-z0-9_-]{6})\\]").matcher(queryOutput);
        assertThat(m.find()).as(queryOutput).isTrue();
        return m.group(1);
    }

    private static String withoutDisk(String statsOutput) {
        return statsOutput.lines().filter(l -> !l.startsWith("disk ")).collect(Collectors.joining("\n"));
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                }
                else {
                    Files.copy(p, target);
                }
            }
        }
    }

}
