package dev.codememory.jobs.invocation;

import java.io.PrintStream;
import picocli.CommandLine;

/**
 * The whole command line of {@code jobs.jar} for one invocation ({@code Cli}): what
 * {@code serve} carries out a command line sent to it with, given to it rather than
 * imported, since every command sits above serve.
 */
@FunctionalInterface
public interface CommandTree {

    CommandLine commandLine(PrintStream out, PrintStream err, Invocation invocation);

}
