package dev.codememory.jobs.cli;

import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.jobs.CodeMemoryApplication;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.runtime.ProcessLock;
import dev.codememory.jobs.schedule.ServeCommand;
import dev.codememory.jobs.vector.EmbeddingBench;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The Boot side of the command line: {@code --job=NAME} runs one job to completion (exit 0 on COMPLETED, 1 with
 * the failing step named otherwise, 3 when the database or the job lock is held by another process), and
 * {@code serve} runs the scheduler in the foreground.
 */
@Component
public class JobCommandRunner implements ApplicationRunner {

    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_BUSY = 3;

    private static final Logger log = LoggerFactory.getLogger(JobCommandRunner.class);

    private final JobRunner jobRunner;
    private final ObjectProvider<ServeCommand> serveCommand;
    private final ObjectProvider<EmbeddingBench> embeddingBench;

    public JobCommandRunner(JobRunner jobRunner, ObjectProvider<ServeCommand> serveCommand,
            ObjectProvider<EmbeddingBench> embeddingBench) {
        this.jobRunner = jobRunner;
        this.serveCommand = serveCommand;
        this.embeddingBench = embeddingBench;
    }

    @Override
    public void run(ApplicationArguments args) {
        List<String> jobs = args.getOptionValues("job");
        if (jobs != null && jobs.size() == 1) {
            CodeMemoryApplication.setExitCode(runJob(jobs.get(0)));
        } else if (args.containsOption("bench-embedding")) {
            List<String> n = args.getOptionValues("bench-embedding");
            int texts = n.isEmpty() || n.get(0).isBlank() ? 1000 : Integer.parseInt(n.get(0));
            CodeMemoryApplication.setExitCode(embeddingBench.getObject().run(System.out, texts));
        } else if (args.getNonOptionArgs().equals(List.of("serve"))) {
            CodeMemoryApplication.setExitCode(serveCommand.getObject().serve());
        } else {
            System.err.println("""
                    usage: java -jar jobs.jar hook                     (Claude Code hook: stdin JSON → spool)
                           java -jar jobs.jar import --hooks PATH      (replay hook JSONL into the spool)
                           java -jar jobs.jar --job=NAME               (run a job: %s)
                           java -jar jobs.jar serve                    (run the scheduler in the foreground)
                           java -jar jobs.jar bench                    (print hook and ingest benchmark figures)"""
                    .formatted(String.join(", ", new java.util.TreeSet<>(jobRunner.jobNames()))));
            CodeMemoryApplication.setExitCode(EXIT_USAGE);
        }
    }

    int runJob(String name) {
        return runJob(jobRunner, name, System.out, System.err);
    }

    /** Runs a job, printing its result (and, on failure, the failed steps and how to resume) to these streams. */
    public static int runJob(JobRunner jobRunner, String name, java.io.PrintStream out, java.io.PrintStream err) {
        if (!jobRunner.jobNames().contains(name)) {
            err.println("unknown job '" + name + "'; known jobs: "
                    + String.join(", ", new java.util.TreeSet<>(jobRunner.jobNames())));
            return EXIT_USAGE;
        }
        JobExecution execution;
        try {
            execution = jobRunner.run(name);
        } catch (DatabaseLockedException | ProcessLock.JobsBusyException e) {
            err.println("job " + name + " not started: " + e.getMessage());
            return EXIT_BUSY;
        }
        if (execution.getStatus() == BatchStatus.COMPLETED) {
            out.println("job " + name + " COMPLETED (execution " + execution.getId() + ")");
            return 0;
        }
        String failedSteps = execution.getStepExecutions().stream()
                .filter(s -> s.getStatus() != BatchStatus.COMPLETED)
                .map(StepExecution::getStepName)
                .collect(Collectors.joining(", "));
        String reasons = execution.getAllFailureExceptions().stream()
                .map(e -> e.getClass().getSimpleName() + ": " + e.getMessage())
                .collect(Collectors.joining("; "));
        err.println("job " + name + " " + execution.getStatus() + " in step "
                + (failedSteps.isEmpty() ? "(none)" : failedSteps) + (reasons.isEmpty() ? "" : ": " + reasons));
        err.println("run the same command again to resume it where it stopped");
        log.error("job {} execution {} ended {} in step {}", name, execution.getId(), execution.getStatus(),
                failedSteps);
        return EXIT_FAILED;
    }
}
