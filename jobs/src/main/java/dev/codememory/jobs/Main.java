package dev.codememory.jobs;

import dev.codememory.jobs.cli.Cli;
import dev.codememory.jobs.cli.HookCommand;

/**
 * Entry point of {@code jobs.jar}. The hook runs on the JDK alone (no picocli, no Spring context, no DuckDB, no
 * model) because Claude Code waits for it: it is dispatched here before anything else is loaded. Every other
 * command goes through the picocli command line ({@link Cli}).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("hook") && (args.length == 1 || args[1].equals("--train"))) {
            System.exit(args.length > 1 ? HookCommand.train() : HookCommand.run(System.in, System.out));
        }
        System.exit(Cli.run(args));
    }
}
