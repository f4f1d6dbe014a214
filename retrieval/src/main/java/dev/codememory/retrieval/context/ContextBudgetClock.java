package dev.codememory.retrieval.context;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The hook's time budget (a hook must never hold Claude Code up): work runs on daemon
 * threads and the caller waits only until the deadline; past it the answer is abandoned
 * and the process may exit around it.
 */
public final class ContextBudgetClock {

    /**
     * Default budget from the moment the hook started, overridable with
     * {@code CODE_MEMORY_CONTEXT_BUDGET_MS}.
     */
    static final Duration DEFAULT_BUDGET = Duration.ofMillis(2_500);

    /**
     * What is kept of the budget for after the wait: logging the outcome, printing, and
     * the process's exit (or serve's reply crossing the socket). Without it a cold hook
     * abandoned at the deadline itself ended 20–50 ms past it.
     */
    static final Duration WRAP_UP = Duration.ofMillis(200);

    private final Instant deadline;

    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "code-memory-context");
        t.setDaemon(true);
        return t;
    });

    ContextBudgetClock(Instant started, Duration budget) {
        this.deadline = started.plus(budget);
    }

    public static Duration budgetFromEnvironment() {
        String configured = System.getenv("CODE_MEMORY_CONTEXT_BUDGET_MS");
        if (configured == null || configured.isBlank()) {
            return DEFAULT_BUDGET;
        }
        try {
            return Duration.ofMillis(Math.max(0, Long.parseLong(configured.trim())));
        }
        catch (NumberFormatException e) {
            return DEFAULT_BUDGET;
        }
    }

    Instant deadline() {
        return deadline;
    }

    long millisLeft(Duration reserve) {
        return Math.max(0, Duration.between(Instant.now(), deadline.minus(reserve)).toMillis());
    }

    <T> Future<T> start(Callable<T> work) {
        return threads.submit(work);
    }

    /**
     * The work's result, or {@link TimeoutException} at the deadline less
     * {@link #WRAP_UP} (the work is then abandoned).
     */
    <T> T await(Future<T> work) throws TimeoutException, ExecutionException, InterruptedException {
        try {
            return work.get(millisLeft(WRAP_UP), TimeUnit.MILLISECONDS);
        }
        catch (TimeoutException e) {
            work.cancel(true);
            throw e;
        }
        finally {
            threads.shutdown(); // a resident process answers many prompts: their threads
                                // must not pile up
        }
    }

}
