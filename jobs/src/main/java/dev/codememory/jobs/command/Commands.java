package dev.codememory.jobs.command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * How a picocli command runs: printing to the given streams, with the exit codes of
 * {@link ExitCode}. The whole command tree ({@code Cli}) and a command run on its own
 * (tests, serve, and the static entry points the commands keep) go through here.
 */
public final class Commands {

    private Commands() {
    }

    /** One command on its own, printing to these streams. */
    public static int execute(Object command, String[] args, PrintStream out, PrintStream err) {
        return execute(new CommandLine(command), args, out, err);
    }

    /** One command line on its own, printing to these streams. */
    public static int execute(CommandLine command, String[] args, PrintStream out, PrintStream err) {
        return configure(command, out, err).execute(args);
    }

    /** Drops the command's own name when a caller passes the whole command line. */
    public static String[] withoutName(String[] args, String name) {
        return args.length > 0 && args[0].equals(name) ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
    }

    /**
     * Prints to {@code out} and {@code err} (UTF-8) and maps a bad command line to
     * {@link ExitCode#USAGE}, any other failure to {@link ExitCode#FAILED}.
     */
    public static CommandLine configure(CommandLine cli, PrintStream out, PrintStream err) {
        cli.setOut(new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cli.setExitCodeExceptionMapper(
                e -> e instanceof CommandLine.ParameterException ? ExitCode.USAGE : ExitCode.FAILED);
        return cli;
    }

}
