package dev.codememory.jobs.runtime;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.settings.CodeMemoryProperties;
import java.util.function.ToIntFunction;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Boot application behind {@code --job=NAME}, {@code serve} and the commands that
 * need the jobs' wiring ({@code forget}, {@code import --transcripts}, {@code demo}).
 * Framework logging goes to {@code logs/jobs.log}; the console gets it only with
 * {@code --verbose} (and {@code serve}, whose console is its log): commands print what
 * happened in their own words.
 * <p>
 * It lives in {@code runtime}, below the commands that start it, and scans the whole of
 * {@code dev.codememory.jobs} as it would from the root.
 */
@SpringBootApplication(scanBasePackages = "dev.codememory.jobs")
@EnableConfigurationProperties({ CodeMemoryProperties.class, dev.codememory.config.team.TeamProperties.class })
public class CodeMemoryApplication {

    /** Exit code set by the command runner; read after the context closes. */
    static volatile int exitCode = 0;

    /**
     * A command to run with the started context instead of {@code --job}/{@code serve};
     * null for those.
     */
    private static volatile ToIntFunction<ConfigurableApplicationContext> action;

    /** How much of the framework's logging reaches the console. */
    public enum Console {

        /** none: the command prints its own account (the default) */
        QUIET("OFF"),
        /** everything that goes to the log file (--verbose) */
        VERBOSE("INFO"),
        /**
         * our own INFO lines and the framework's warnings (serve, a foreground service)
         */
        SERVICE("INFO");

        private final String threshold;

        Console(String threshold) {
            this.threshold = threshold;
        }

    }

    public static int run(String[] args) {
        return run(args, Console.QUIET);
    }

    public static int run(String[] args, Console console) {
        return run(args, console, null);
    }

    /**
     * Starts the application with {@code args} (Spring arguments such as
     * {@code --job=NAME} or {@code --name=value} settings), runs {@code command} with the
     * context if given, and returns the exit code.
     */
    public static int run(String[] args, Console console, ToIntFunction<ConfigurableApplicationContext> command) {
        CodeMemoryHome home = CodeMemoryHome.resolve().ensureCreated();
        prepareEnvironment(home);
        System.setProperty("logging.threshold.console", console.threshold);
        exitCode = 0;
        action = command;
        try (ConfigurableApplicationContext context = SpringApplication.run(CodeMemoryApplication.class, args)) {
            if (command != null) {
                exitCode = command.applyAsInt(context);
            }
            return SpringApplication.exit(context, () -> exitCode);
        }
        catch (RuntimeException e) {
            // start-up failed (bad settings, locked metadata): say why here, the details
            // are in the log
            if (exitCode == 0) {
                System.err.println("code-memory could not start: " + rootMessage(e));
                System.err.println("details: " + home.logs().resolve("jobs.log"));
            }
            return exitCode != 0 ? exitCode : 1;
        }
        finally {
            action = null;
            home.restrictPermissions();
        }
    }

    /**
     * Whether a command (rather than {@code --job} or {@code serve}) will run with the
     * context.
     */
    public static boolean hasCommand() {
        return action != null;
    }

    public static void setExitCode(int code) {
        exitCode = code;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
    }

    /**
     * Points Spring, SQLite and DuckDB's native extraction at the home before anything
     * reads the settings.
     */
    static void prepareEnvironment(CodeMemoryHome home) {
        System.setProperty(CodeMemoryHome.PROPERTY, home.root().toString());
        System.setProperty("spring.config.additional-location", "optional:file:" + home.root() + "/");
        CodeMemoryHome.createPrivateDirectory(home.tmp());
        // DuckDB copies its 70 MB native library into java.io.tmpdir on every start and
        // leaks it on kill -9
        System.setProperty("java.io.tmpdir", home.tmp().toString());
        NativeLibraryCleaner.removeStale(home.tmp());
        CodeMemoryHome.createPrivateFile(home.batchMetadata());
    }

}
