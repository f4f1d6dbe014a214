package dev.codememory.jobs;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.cli.BenchCommand;
import dev.codememory.jobs.cli.HookCommand;
import dev.codememory.jobs.cli.ImportCommand;
import dev.codememory.jobs.cli.TaskCommands;
import dev.codememory.jobs.query.EvalCommand;
import dev.codememory.jobs.query.QueryCommand;
import dev.codememory.jobs.serve.ServeClient;

/**
 * Entry point of {@code jobs.jar}. The hook and import paths run on the JDK alone (no Spring context, no DuckDB,
 * no model) because Claude Code waits for the hook; everything else starts the Boot application.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        String command = args.length > 0 ? args[0] : "";
        switch (command) {
            case "hook" -> {
                if (args.length > 1 && "--train".equals(args[1])) {
                    System.exit(HookCommand.train());
                }
                int code = HookCommand.run(System.in, System.out);
                System.out.flush();
                // halt, not exit: everything the hook writes is on disk already (spool and log lines are synced as
                // they are written), while the shutdown hooks would wait for a cold query abandoned at the deadline
                // (DuckDB's closes its databases) and keep Claude Code waiting past the budget
                Runtime.getRuntime().halt(code);
            }
            case "import" -> System.exit(ImportCommand.run(args));
            case "bench" -> System.exit(BenchCommand.run(args));
            case "query" -> System.exit(QueryCommand.run(args, System.out, System.err));
            case "show" -> System.exit(dev.codememory.jobs.query.ShowCommand.run(args, System.out, System.err));
            case "eval" -> System.exit(EvalCommand.run(args, System.out, System.err));
            case "tasks", "task", "blocked" -> System.exit(TaskCommands.run(args, System.out, System.err));
            default -> {
                // a job asked for while serve holds the database runs in serve, which prints its progress here
                java.util.OptionalInt served = ServeClient.jobName(args)
                        .map(job -> ServeClient.forHome(CodeMemoryHome.resolve()).job(job, System.out, System.err))
                        .orElse(java.util.OptionalInt.empty());
                System.exit(served.isPresent() ? served.getAsInt() : CodeMemoryApplication.run(args));
            }
        }
    }
}
