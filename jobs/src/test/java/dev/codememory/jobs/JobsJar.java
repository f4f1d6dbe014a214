package dev.codememory.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.install.InstallCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs the built {@code jobs.jar} as a real process against a test home, and reads what
 * it wrote.
 */
public final class JobsJar {

    public static final Path JAR = Path.of(System.getProperty("jobs.jar", "target/jobs.jar")).toAbsolutePath();

    private JobsJar() {
    }

    public record Result(int exit, String stdout, String stderr) {
    }

    /**
     * The JVM flags the tests run the jar with. The C1 compiler only: each process lives
     * seconds, and C2 compiling Spring's start-up costs more CPU than the command does;
     * on two busy cores the demo (import, graduate, two contexts) takes 19 s instead of
     * 36 s, 11 s of CPU instead of 17. And, once the build made it (jobs/pom.xml,
     * test-cds-archive), a class-data archive of a Spring start: a quarter less CPU per
     * start again. What the jar does depends on neither.
     */
    private static final List<String> JVM_FLAGS = jvmFlags();

    private static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
        Path archive = Path.of(System.getProperty("jobs.tests.jsa", "target/jobs-tests.jsa"));
        if (Files.isRegularFile(archive)) {
            // JVM warnings (a stale archive) would otherwise reach the command's stdout
            flags.addAll(List.of("-XX:SharedArchiveFile=" + archive.toAbsolutePath(), "-Xlog:disable",
                    "-Xlog:all=error:stderr"));
        }
        return List.copyOf(flags);
    }

    static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(JVM_FLAGS);
        command.addAll(List.of("-jar", JAR.toString()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The hook as {@code install} registers it (class-data archive, JVM flags), run with
     * this JDK's java.
     */
    static List<String> hookCommand() {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(InstallCommand.hookArguments(JAR));
        return command;
    }

    public static Result run(Path home, byte[] stdin, String... args) throws IOException, InterruptedException {
        return run(home, stdin, command(args));
    }

    /**
     * The jar with these environment variables added (besides {@code CODE_MEMORY_HOME}).
     */
    public static Result run(Path home, Map<String, String> env, byte[] stdin, String... args)
            throws IOException, InterruptedException {
        return run(home, env, stdin, command(args));
    }

    static Result run(Path home, byte[] stdin, List<String> command) throws IOException, InterruptedException {
        return run(home, Map.of(), stdin, command);
    }

    /** The jar started in the directory {@code cwd}. */
    static Result runIn(Path cwd, Path home, String... args) throws IOException, InterruptedException {
        return run(cwd, home, Map.of(), new byte[0], command(args));
    }

    static Result run(Path home, Map<String, String> env, byte[] stdin, List<String> command)
            throws IOException, InterruptedException {
        return run(null, home, env, stdin, command);
    }

    private static Result run(Path cwd, Path home, Map<String, String> env, byte[] stdin, List<String> command)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("jobs-out", ".txt");
        Path err = Files.createTempFile("jobs-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (cwd != null) {
                pb.directory(cwd.toFile());
            }
            pb.environment().put("CODE_MEMORY_HOME", home.toString());
            pb.environment().putAll(env);
            Process p = pb.start();
            try (var in = p.getOutputStream()) {
                in.write(stdin);
            }
            catch (IOException e) {
                // the process may exit before reading everything; its exit code tells
            }
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + command);
            }
            return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        }
        finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    public static Process start(Path home, Path log, String... args) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("CODE_MEMORY_HOME", home.toString());
        return pb.start();
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A single value from the DuckDB file, opened read-only (fails if a job holds it).
     */
    static long duckLong(Path home, String sql) throws SQLException {
        try (Connection c = duck(home); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public static List<List<Object>> duckRows(Path home, String sql) throws SQLException {
        try (Connection c = duck(home); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rows(rs);
        }
    }

    static Connection duck(Path home) throws SQLException {
        Properties p = new Properties();
        p.setProperty("duckdb.read_only", "true");
        return DriverManager.getConnection("jdbc:duckdb:" + home.resolve("memory.duckdb"), p);
    }

    static List<List<Object>> sqliteRows(Path home, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("batch-metadata.sqlite"));
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rows(rs);
        }
    }

    /** Every row of a result set, each as its column values in order. */
    public static List<List<Object>> rows(ResultSet rs) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                row.add(rs.getObject(i));
            }
            rows.add(row);
        }
        return rows;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Waits until the serve process started on {@code home} answers warm (model and
     * indexes loaded), at most 180 s; fails with its log when it dies or takes longer.
     */
    public static void awaitWarm(Path home, Process serve, Path log) throws Exception {
        ServeClient client = ServeClient.forHome(new CodeMemoryHome(home));
        long deadline = System.currentTimeMillis() + 180_000;
        while (System.currentTimeMillis() < deadline) {
            assertThat(serve.isAlive())
                .as("serve is running; its log:\n%s", Files.exists(log) ? Files.readString(log) : "")
                .isTrue();
            var ping = client.call(Map.of("op", "ping"), Instant.now().plusSeconds(5));
            if (ping.isPresent() && Boolean.TRUE.equals(ping.get().get("warm"))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("serve not warm in 180 s; its log:\n" + Files.readString(log));
    }

}
