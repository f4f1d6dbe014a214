package dev.codememory.jobs;

import dev.codememory.jobs.hook.HookCommand;

/**
 * Entry point of {@code jobs.jar}. The hook runs on the JDK alone (no picocli, no Spring
 * context, no DuckDB, no model) because Claude Code waits for it: it is dispatched here
 * before anything else is loaded. Every other command goes through the picocli command
 * line ({@link Cli}).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("hook") && args.length > 1 && args[1].equals("--train")) {
            System.exit(HookCommand.train());
        }
        if (args.length == 1 && args[0].equals("hook")) {
            int code = HookCommand.run(System.in, System.out);
            System.out.flush();
            // halt, not exit: everything the hook writes is on disk already (spool and
            // log lines are synced as
            // they are written), while the shutdown hooks would wait for a cold query
            // abandoned at the deadline
            // (DuckDB's closes its databases) and keep Claude Code waiting past the
            // budget
            Runtime.getRuntime().halt(code);
        }
        if (args.length == 1 && args[0].equals("mcp")) {
            // before picocli too: initialize is answered on the JDK alone (McpStdio)
            System.exit(dev.codememory.jobs.mcp.McpStdio.run());
        }
        System.exit(Cli.run(args));
    }

}
