package dev.codememory.jobs;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.client.ServeClient;
import dev.codememory.jobs.command.ExitCode;
import dev.codememory.jobs.demo.DemoCommand;
import dev.codememory.jobs.endless.EndlessCommand;
import dev.codememory.jobs.forget.ForgetCommand;
import dev.codememory.jobs.hook.HookCommand;
import dev.codememory.jobs.install.InstallCommand;
import dev.codememory.jobs.install.UninstallCommand;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.report.ExportCommand;
import dev.codememory.jobs.report.HistoryCommand;
import dev.codememory.jobs.report.StatsCommand;
import dev.codememory.jobs.runtime.CodeMemoryApplication;
import dev.codememory.jobs.search.QueryCommand;
import dev.codememory.jobs.search.ShowCommand;
import dev.codememory.jobs.share.ShareCommand;
import dev.codememory.jobs.tasks.TaskCommands;
import dev.codememory.jobs.transcript.ImportCommand;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;
import picocli.CommandLine;

import static dev.codememory.jobs.command.Commands.configure;

/**
 * The command line of {@code jobs.jar}, on picocli: every command but {@code hook} (which
 * {@code Main} runs before any of this is loaded, on the JDK alone). {@code --help} works
 * on each; exit codes are the same everywhere: 0 done, 1 failed, 2 bad usage, 3 busy (a
 * job or another process holds the database).
 */
@Command(name = "java -jar jobs.jar", mixinStandardHelpOptions = true, version = "code-memory 0.1.0",
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Long-term memory for Claude Code: hooks capture every prompt, reply and tool call; jobs "
                + "graduate them into verified, cited memories that are put in front of Claude when relevant.",
        footerHeading = "%nExit codes:%n",
        footer = { "  0  done", "  1  failed (the message says why; details in ~/.code-memory/logs/)",
                "  2  bad usage (or an unknown job)", "  3  busy: a job or another process holds the database", "",
                "`java -jar jobs.jar COMMAND --help` explains each command." })
public final class Cli implements Callable<Integer> {

    @Option(names = "--job", paramLabel = "NAME", order = 1,
            description = "run one job to completion: ingest, graduate, reindex. Running the same command after a "
                    + "failure resumes it where it stopped.")
    String job;

    @Option(names = "--verbose", order = 2,
            description = "also show the framework's log lines on the console " + "(they always go to logs/jobs.log)")
    boolean verbose;

    @Unmatched
    List<String> settings = new ArrayList<>();

    private final PrintStream out;

    private final PrintStream err;

    Cli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * Runs a command line (without {@code hook}, which {@code Main} handles) and returns
     * its exit code.
     */
    public static int run(String[] args) {
        java.util.OptionalInt served = throughServe(args, System.out, System.err);
        return served.isPresent() ? served.getAsInt() : commandLine(System.out, System.err).execute(args);
    }

    /**
     * A command that opens the database ({@link ServeClient#COMMANDS}) or a job asked for
     * while {@code serve} runs goes to serve, which holds the database, and prints here
     * as it would have; empty when serve is not running (or the command line asks for
     * help), and the command runs in this process.
     */
    static java.util.OptionalInt throughServe(String[] args, PrintStream out, PrintStream err) {
        List<String> words = List.of(args);
        if (args.length == 0 || words.contains("--help") || words.contains("-h") || words.contains("--version")
                || words.contains("-V")) {
            return java.util.OptionalInt.empty();
        }
        ServeClient serve = ServeClient.forHome(CodeMemoryHome.resolve());
        if (ServeClient.COMMANDS.contains(args[0])) {
            return serve.command(args, java.nio.file.Path.of("").toAbsolutePath(), out, err);
        }
        return ServeClient.jobName(args).map(job -> serve.job(job, out, err)).orElse(java.util.OptionalInt.empty());
    }

    /** The whole command tree, printing to the given streams. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        return commandLine(out, err, Invocation.local());
    }

    /**
     * The whole command tree for {@code invocation}: in this process, or in serve for a
     * command line sent to it ({@link ServeClient#COMMANDS}).
     */
    public static CommandLine commandLine(PrintStream out, PrintStream err, Invocation invocation) {
        CommandLine cli = configure(new CommandLine(new Cli(out, err)), out, err);
        cli.addSubcommand("hook", configure(new CommandLine(new HookHelp()), out, err));
        cli.addSubcommand("import", configure(new CommandLine(new ImportCommand(out, err, invocation)), out, err));
        cli.addSubcommand("query", configure(new CommandLine(new QueryCommand(out, err, invocation)), out, err),
                "search");
        cli.addSubcommand("show", configure(new CommandLine(new ShowCommand(out, err, invocation)), out, err));
        for (CommandLine task : TaskCommands.commandLines(out, err, invocation)) {
            cli.addSubcommand(configure(task, out, err));
        }
        // a phrase to forget may start with -- (even look like --before=…): --match takes
        // it
        cli.addSubcommand("forget", configure(new CommandLine(new ForgetCommand(out, err, invocation)), out, err)
            .setAllowOptionsAsOptionParameters(true));
        cli.addSubcommand("stats", configure(new CommandLine(new StatsCommand(out, err, invocation)), out, err));
        cli.addSubcommand("distill", configure(
                new CommandLine(new dev.codememory.jobs.distill.DistillCommand(out, err, invocation)), out, err));
        cli.addSubcommand("history", configure(new CommandLine(new HistoryCommand(out, err, invocation)), out, err));
        cli.addSubcommand("export", configure(new CommandLine(new ExportCommand(out, err, invocation)), out, err));
        cli.addSubcommand("endless", configure(new CommandLine(new EndlessCommand(out, err, invocation)), out, err));
        cli.addSubcommand("share", configure(new CommandLine(new ShareCommand(out, err, invocation)), out, err));
        cli.addSubcommand("install", configure(new CommandLine(new InstallCommand(out, err)), out, err));
        cli.addSubcommand("uninstall", configure(new CommandLine(new UninstallCommand(out, err)), out, err));
        cli.addSubcommand("serve", configure(new CommandLine(new ServeCli()), out, err));
        cli.addSubcommand("mcp", configure(new CommandLine(new dev.codememory.jobs.mcp.McpCommand()), out, err));
        cli.addSubcommand("demo", configure(new CommandLine(new DemoCommand(out, err)), out, err));
        cli.addSubcommand("viewer",
                configure(new CommandLine(new dev.codememory.jobs.viewer.ViewerCommand(out, err)), out, err));
        return cli;
    }

    @Override
    public Integer call() {
        if (job == null) {
            if (!settings.isEmpty()) {
                err.println("unknown command or option: " + String.join(" ", settings));
            }
            CommandLine.usage(this, settings.isEmpty() ? out : err);
            return ExitCode.USAGE;
        }
        List<String> args = new ArrayList<>();
        args.add("--job=" + job);
        args.addAll(settings);
        return CodeMemoryApplication.run(args.toArray(String[]::new),
                verbose ? CodeMemoryApplication.Console.VERBOSE : CodeMemoryApplication.Console.QUIET);
    }

    /**
     * {@code hook}: documented here; {@code Main} runs it on the JDK alone without
     * loading this class.
     */
    @Command(name = "hook", header = "Claude Code's hook: stdin event → redacted spool line, prints context to inject",
            description = {
                    "Claude Code's hook: reads one hook event (JSON) on stdin, appends it, redacted, to the spool, and for "
                            + "UserPromptSubmit and SessionStart prints the memories to inject, if any.",
                    "Always exits 0 (a non-zero exit would get in Claude Code's way); failures go to logs/hook.log.",
                    "`install` registers it with Claude Code." },
            mixinStandardHelpOptions = true)
    static final class HookHelp implements Callable<Integer> {

        @Override
        public Integer call() {
            return HookCommand.run(System.in, System.out);
        }

    }

    /** {@code serve}: the scheduler in the foreground (its console is its log). */
    @Command(name = "serve",
            header = "the scheduler in the foreground: ingest every minute, graduate when idle and nightly",
            mixinStandardHelpOptions = true,
            description = {
                    "Runs the scheduler in the foreground: ingests the spool every minute, graduates after 30 idle minutes and "
                            + "nightly at 03:00 (catching up a missed night at start), one job at a time. Stop it with Ctrl-C "
                            + "or SIGTERM: a running job stops at its next chunk and resumes next time.",
                    "Settings can be given as --name=value (e.g. --code-memory.schedule.ingest-every=30s)." })
    static final class ServeCli implements Callable<Integer> {

        @Unmatched
        List<String> settings = new ArrayList<>();

        @Override
        public Integer call() {
            List<String> args = new ArrayList<>(List.of("serve"));
            args.addAll(settings);
            return CodeMemoryApplication.run(args.toArray(String[]::new), CodeMemoryApplication.Console.SERVICE);
        }

    }

}
