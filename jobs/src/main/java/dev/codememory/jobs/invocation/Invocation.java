package dev.codememory.jobs.invocation;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.runtime.ConsoleProgress;
import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.springframework.context.ApplicationContext;

/**
 * One run of a command line: who typed it (their directory, against which relative paths
 * resolve; their time zone; whether their output is a terminal) and where it runs — in
 * its own process ({@link #local()}), which opens the database itself, or inside the
 * resident {@code serve}, which owns the database and lends its session and its jobs'
 * wiring. The commands reach the home, the database and the jobs only through it, so the
 * same code prints the same output and exits the same way in both.
 */
public interface Invocation {

    /**
     * How long a command waits for another process to let go of the database before it
     * gives up busy (exit 3): long enough for a command that reads (a second or two), far
     * shorter than a job.
     */
    Duration LOCK_PATIENCE = Duration.ofSeconds(8);

    /** The caller's working directory. */
    Path cwd();

    /** The caller's time zone (dates such as {@code forget --before 2026-01-31}). */
    ZoneId zone();

    /** Whether the caller's standard output is a terminal (live progress lines). */
    boolean terminal();

    CodeMemoryHome home();

    /**
     * The database to read, closed by the caller: opened for this command (read-only
     * beside other readers, waiting {@link #LOCK_PATIENCE} for a writer), or serve's.
     */
    SessionLease read();

    /**
     * Runs {@code work} with the jobs' application context: started for it in this
     * process (its framework logging on the console only when {@code verbose}), or
     * serve's own, once no job is running there and with its indexes brought up to date
     * afterwards. Returns the work's exit code.
     */
    int withJobs(boolean verbose, ToIntFunction<ApplicationContext> work);

    /**
     * For a command that runs without Spring: its library logging (WARN and above) goes
     * to stderr, not to stdout, which is its output. Inside serve nothing changes:
     * serve's own logging set-up (logs/jobs.log) stays as it is.
     */
    void logToStderr();

    /**
     * Serve's warm query services (model loaded, indexes in memory); null when the
     * command runs in its own process and builds its own.
     */
    default Function<RankingSettings, QueryLease> residentQueries() {
        return null;
    }

    /** {@code path} resolved against the caller's directory. */
    default Path resolve(Path path) {
        return cwd().resolve(path).normalize();
    }

    /** The command in this process, for the user who started it. */
    static Invocation local() {
        return new Local(null);
    }

    /** The command in this process, on the given home (tests). */
    static Invocation local(CodeMemoryHome home) {
        return new Local(home);
    }

    /**
     * This process: its directory and zone, its home (null: the one it resolves when
     * asked), its own database.
     */
    final class Local implements Invocation {

        private final CodeMemoryHome home;

        private Local(CodeMemoryHome home) {
            this.home = home;
        }

        @Override
        public Path cwd() {
            return Path.of("").toAbsolutePath();
        }

        @Override
        public ZoneId zone() {
            return ZoneId.systemDefault();
        }

        @Override
        public boolean terminal() {
            return ConsoleProgress.isTerminal();
        }

        @Override
        public CodeMemoryHome home() {
            return home != null ? home : CodeMemoryHome.resolve();
        }

        @Override
        public void logToStderr() {
            QueryLogging.toStderr();
        }

        @Override
        public SessionLease read() {
            return new SessionLease(DuckDb.forHome(home()).openForReading(LOCK_PATIENCE), true);
        }

        @Override
        public int withJobs(boolean verbose, ToIntFunction<ApplicationContext> work) {
            return CodeMemoryApplication.run(new String[0],
                    verbose ? CodeMemoryApplication.Console.VERBOSE : CodeMemoryApplication.Console.QUIET,
                    work::applyAsInt);
        }

    }

}
