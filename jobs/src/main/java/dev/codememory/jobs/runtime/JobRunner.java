package dev.codememory.jobs.runtime;

import dev.codememory.config.home.CodeMemoryHome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.JobInstance;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.repository.JobRepository;

/**
 * Runs a job by its command-line name, one at a time per home ({@code jobs.lock}) and per
 * job repository on PostgreSQL ({@link RepositoryJobLock}, for the serves that share
 * one). If the job's last execution failed, stopped or was left STARTED by a crash (we
 * hold both locks, so nobody else is running it), that execution is recovered and
 * restarted where it stopped, not duplicated; otherwise a new instance starts.
 */
public class JobRunner {

    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);

    private static final Set<BatchStatus> RESTARTABLE = Set.of(BatchStatus.FAILED, BatchStatus.STOPPED);

    private final Map<String, Job> jobsByCommandName;

    private final JobOperator jobOperator;

    private final JobRepository jobRepository;

    private final CodeMemoryHome home;

    private final JobDatabase database;

    private final RepositoryJobLock repositoryLock;

    private final JobRunListener runs;

    private volatile boolean refusing;

    private final List<BiConsumer<String, JobExecution>> afterRun = new CopyOnWriteArrayList<>();

    public JobRunner(Map<String, Job> jobsByCommandName, JobOperator jobOperator, JobRepository jobRepository,
            CodeMemoryHome home, JobDatabase database, RepositoryJobLock repositoryLock, JobRunListener runs) {
        this.repositoryLock = repositoryLock;
        this.runs = runs;
        this.jobsByCommandName = Map.copyOf(jobsByCommandName);
        this.jobOperator = jobOperator;
        this.jobRepository = jobRepository;
        this.home = home;
        this.database = database;
    }

    private final AtomicInteger running = new AtomicInteger();

    /**
     * For a serve shutting down: refuses new runs from now on (one queued or fired
     * meanwhile would hold the shutdown up for as long as it takes), lets the run this
     * process is running end by itself within {@code grace}, then asks it to stop at its
     * next chunk. Asking one that is saving its end races Spring Batch's own update of
     * the run, which then ends UNKNOWN; and in a repository shared with other serves,
     * their runs are not ours to stop.
     */
    public void drain(Duration grace) {
        refusing = true;
        long deadline = System.nanoTime() + grace.toNanos();
        while (running() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        JobExecution here = runs.running();
        JobExecution ours = here == null ? null : jobRepository.getJobExecution(here.getId());
        if (ours != null && ours.getStatus().isRunning()) {
            try {
                jobOperator.stop(ours);
            }
            catch (Exception e) {
                log.warn("cannot stop job {} execution {}: {}", ours.getJobInstance().getJobName(), ours.getId(),
                        e.getMessage());
            }
        }
    }

    /** Whether a job is running now. */
    public boolean running() {
        return running.get() > 0;
    }

    /**
     * Called after each run, with the job's command name and its execution (e.g. to
     * refresh resident indexes).
     */
    public void afterEachRun(BiConsumer<String, JobExecution> listener) {
        afterRun.add(listener);
    }

    public Set<String> jobNames() {
        return jobsByCommandName.keySet();
    }

    public synchronized JobExecution run(String commandName) {
        Job job = jobsByCommandName.get(commandName);
        if (job == null) {
            throw new IllegalArgumentException("unknown job '" + commandName + "'; known jobs: "
                    + String.join(", ", new TreeSet<>(jobsByCommandName.keySet())));
        }
        if (refusing) {
            throw new ProcessLock.JobsBusyException(
                    "serve is shutting down; " + commandName + " runs at its next start");
        }
        running.incrementAndGet();
        try (ProcessLock ignored = ProcessLock.acquire(home.jobLock());
                RepositoryJobLock.Held alsoIgnored = repositoryLock.hold()) {
            // open DuckDB before touching batch metadata: a locked database fails fast,
            // naming the holder
            database.open();
            JobExecution execution = null;
            try {
                execution = launch(job);
                return execution;
            }
            finally {
                database.close();
                home.restrictPermissions();
                for (var listener : afterRun) {
                    listener.accept(commandName, execution);
                }
            }
        }
        finally {
            running.decrementAndGet();
        }
    }

    /**
     * Runs {@code work} while no job runs in this process, and holds jobs back until it
     * is done: for work that writes to the database beside the jobs (a {@code forget}
     * that {@code serve} carries out). The work may run jobs itself.
     */
    public synchronized int exclusively(IntSupplier work) {
        return work.getAsInt();
    }

    private JobExecution launch(Job job) {
        try {
            JobInstance lastInstance = jobRepository.getLastJobInstance(job.getName());
            if (lastInstance != null) {
                JobExecution last = jobRepository.getLastJobExecution(lastInstance);
                if (last != null && last.getStatus().isRunning()) {
                    log.warn("job {} execution {} was left {} by a process that died; recovering it", job.getName(),
                            last.getId(), last.getStatus());
                    last = jobOperator.recover(last);
                }
                if (last != null && RESTARTABLE.contains(last.getStatus())) {
                    log.info("restarting job {} execution {} ({}) where it stopped", job.getName(), last.getId(),
                            last.getStatus());
                    return jobOperator.restart(last);
                }
            }
            JobParameters parameters = new JobParametersBuilder().addLong("run.id", nextRunId(lastInstance))
                .toJobParameters();
            return jobOperator.start(job, parameters);
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot run job " + job.getName() + ": " + e.getMessage(), e);
        }
    }

    /** An execution with its step executions, as the repository has them now. */
    public JobExecution execution(long id) {
        return jobRepository.getJobExecution(id);
    }

    /** The most recent execution of a job, or null. */
    public JobExecution lastExecution(String commandName) {
        Job job = jobsByCommandName.get(commandName);
        JobInstance instance = job == null ? null : jobRepository.getLastJobInstance(job.getName());
        return instance == null ? null : jobRepository.getLastJobExecution(instance);
    }

    private long nextRunId(JobInstance lastInstance) {
        if (lastInstance == null) {
            return 1;
        }
        JobExecution last = jobRepository.getLastJobExecution(lastInstance);
        Long previous = last == null ? null : last.getJobParameters().getLong("run.id");
        return previous == null ? 1 : previous + 1;
    }

}
