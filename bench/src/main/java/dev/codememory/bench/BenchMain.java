package dev.codememory.bench;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Entry point of {@code bench.jar}: the benchmarks and the retrieval eval, kept out of
 * the product's {@code jobs.jar} (which they launch as real processes, see
 * {@link ProductJar}). Exit codes as the product's: 0 done, 1 failed, 2 bad usage.
 */
@Command(name = "java -jar bench/target/bench.jar", mixinStandardHelpOptions = true,
        version = "code-memory bench 0.1.0", sortOptions = false, usageHelpAutoWidth = true,
        description = "Benchmarks and the retrieval evaluation of code-memory; they run the product's jobs.jar as "
                + "separate processes. Not part of the product.",
        footerHeading = "%nExit codes:%n", footer = { "  0  done", "  1  failed (the message says why)",
                "  2  bad usage", "", "`java -jar bench/target/bench.jar COMMAND --help` explains each command." })
public final class BenchMain implements Callable<Integer> {

    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;

    private final PrintStream out;

    @Spec
    CommandSpec spec;

    private BenchMain(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command line and returns its exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return commandLine(out, err).execute(args);
    }

    /** {@code bench} and {@code eval}, printing to the given streams. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = configure(new CommandLine(new BenchMain(out)), out, err);
        cli.addSubcommand("bench", configure(new CommandLine(new BenchCommand()), out, err));
        cli.addSubcommand("eval", configure(new CommandLine(new EvalCommand(out, err)), out, err));
        return cli;
    }

    private static CommandLine configure(CommandLine cli, PrintStream out, PrintStream err) {
        cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cli.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_FAILED);
        return cli;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return EXIT_USAGE;
    }

}
