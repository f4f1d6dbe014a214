package dev.codememory.jobs.runtime;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.jobs.command.ExitCode;
import java.io.PrintStream;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The Boot side of the command line: {@code --job=NAME} runs one job to completion (exit
 * 0 on COMPLETED, 1 with the failing step named otherwise, 3 when the database or the job
 * lock is held by another process); {@code serve} runs the scheduler in the foreground
 * ({@code ServeCommand}, the other runner). Commands that need the context for something
 * else ({@code forget}, {@code import --transcripts}, {@code demo}) run after start-up
 * instead.
 */
@Component
public class JobCommandRunner implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(JobCommandRunner.class);

    private static final String NOTHING_CAPTURED = """
            nothing has been captured yet. To fill it:
              java -jar jobs.jar install                  register the hooks with Claude Code
              java -jar jobs.jar import --transcripts     load your past Claude Code sessions
              java -jar jobs.jar demo                     see it work on a small sample of sessions""";

    private final JobRunner jobRunner;

    private final ConsoleProgress progress;

    private final JobRunListener runListener;

    public JobCommandRunner(JobRunner jobRunner, ConsoleProgress progress, JobRunListener runListener) {
        this.jobRunner = jobRunner;
        this.progress = progress;
        this.runListener = runListener;
    }

    @Override
    public void run(ApplicationArguments args) {
        List<String> jobs = args.getOptionValues("job");
        if (jobs != null && jobs.size() == 1) {
            CodeMemoryApplication.setExitCode(runJob(jobs.get(0), System.out, true));
        }
        else if (args.getNonOptionArgs().equals(List.of("serve"))) {
            return; // ServeCommand runs it
        }
        else if (CodeMemoryApplication.hasCommand()) {
            return; // the command runs with the context once it has started
        }
        else {
            System.err.println("usage: java -jar jobs.jar --job=NAME   ("
                    + String.join(", ", new java.util.TreeSet<>(jobRunner.jobNames()))
                    + "); java -jar jobs.jar --help for every command");
            CodeMemoryApplication.setExitCode(ExitCode.USAGE);
        }
    }

    /**
     * {@link #runJob(String, PrintStream, PrintStream, boolean)} with failures on stderr.
     */
    public int runJob(String name, PrintStream out, boolean hintWhenEmpty) {
        return runJob(name, out, System.err, hintWhenEmpty);
    }

    /**
     * Runs a job, showing each stage on {@code out} as it completes (with a live line on
     * a terminal) and a summary of what the store holds afterwards; failures go to
     * {@code err}. {@code serve} runs the jobs asked of it through here too, with the
     * caller's streams.
     * @param hintWhenEmpty whether to say how to fill a store that is still empty after
     * the run
     */
    public int runJob(String name, PrintStream out, PrintStream err, boolean hintWhenEmpty) {
        if (!jobRunner.jobNames().contains(name)) {
            err.println("unknown job '" + name + "'; known jobs: "
                    + String.join(", ", new java.util.TreeSet<>(jobRunner.jobNames())));
            return ExitCode.USAGE;
        }
        JobExecution execution;
        long start = System.nanoTime();
        out.println(name + ":");
        progress.attach(out, out == System.out && ConsoleProgress.isTerminal());
        try {
            execution = jobRunner.run(name);
        }
        catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            err.println("job " + name + " not started: " + e.getMessage());
            return ExitCode.BUSY;
        }
        finally {
            progress.detach();
        }
        if (execution.getStatus() == BatchStatus.COMPLETED) {
            out.println(summary(name, System.nanoTime() - start, runListener.before(), runListener.after()));
            if (hintWhenEmpty && runListener.after().events() == 0) {
                out.println(NOTHING_CAPTURED);
            }
            return 0;
        }
        String failedSteps = execution.getStepExecutions()
            .stream()
            .filter(s -> s.getStatus() != BatchStatus.COMPLETED)
            .map(StepExecution::getStepName)
            .collect(Collectors.joining(", "));
        String reasons = execution.getAllFailureExceptions()
            .stream()
            .map(JobCommandRunner::reason)
            .collect(Collectors.joining("; "));
        err.println("job " + name + " " + execution.getStatus() + " in step "
                + (failedSteps.isEmpty() ? "(none)" : failedSteps) + (reasons.isEmpty() ? "" : ": " + reasons));
        err.println("run the same command again to resume it where it stopped (details: logs/jobs.log)");
        log.error("job {} execution {} ended {} in step {}", name, execution.getId(), execution.getStatus(),
                failedSteps);
        return ExitCode.FAILED;
    }

    /**
     * What went wrong, past Spring Batch's wrappers ("Unable to process chunk"): the
     * first exception in the chain that is not Spring's, e.g. the vector store's "milvus
     * vector store: cannot upsert into …".
     */
    static String reason(Throwable failure) {
        Throwable e = failure;
        while (e.getClass().getName().startsWith("org.springframework.") && e.getCause() != null && e.getCause() != e) {
            e = e.getCause();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /**
     * "graduate completed in 12.4 s: 6,041 events (+6,041), 14 sessions (+14), 1,210
     * memories (+1,210)".
     */
    static String summary(String name, long nanos, JobRunListener.Totals before, JobRunListener.Totals after) {
        StringBuilder line = new StringBuilder(name).append(" completed in ").append(ConsoleProgress.seconds(nanos));
        if (after.events() >= 0) {
            line.append(": ")
                .append(count(after.events(), before.events(), "event", "events"))
                .append(", ")
                .append(count(after.sessions(), before.sessions(), "session", "sessions"))
                .append(", ")
                .append(count(after.memories(), before.memories(), "memory", "memories"));
        }
        return line.toString();
    }

    private static String count(long now, long before, String one, String many) {
        String text = ConsoleProgress.number(now) + " " + (now == 1 ? one : many);
        if (before < 0) {
            return text;
        }
        long added = now - before;
        return text + " (" + (added >= 0 ? "+" : "") + ConsoleProgress.number(added) + ")";
    }

}
