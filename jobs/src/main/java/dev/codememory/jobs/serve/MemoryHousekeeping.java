package dev.codememory.jobs.serve;

import dev.codememory.config.db.DuckDb;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@link ResidentQueries} gives back the memory that warming up, a job or a burst of
 * answers took: DuckDB's cache shrunk to {@link #DATABASE_CACHE_KEPT}, the heap's garbage
 * collected and the C heap trimmed ({@link ProcessMemory}), after warm-up, after each job
 * and once serve has answered and then been idle for {@link #IDLE_BEFORE_COMPACTION}.
 */
final class MemoryHousekeeping {

    /** Logs as the resident queries, whose memory this is. */
    private static final Logger log = LoggerFactory.getLogger(ResidentQueries.class);

    /**
     * How long serve waits after its last answer before giving back what answering took.
     */
    static final Duration IDLE_BEFORE_COMPACTION = Duration.ofSeconds(60);

    private static final int IDLE_CHECK_SECONDS = 15;

    private static final Duration IDLE_CHECK = Duration.ofSeconds(IDLE_CHECK_SECONDS);

    /**
     * What DuckDB may keep cached once the indexes are in memory: the hook's and
     * commands' reads are small, and a search reads only the turns of a few sessions
     * (100k memories: 15 MB kept instead of 61 MB, the same search latency).
     */
    static final String DATABASE_CACHE_KEPT = "16MB";

    private final Supplier<DuckDb.Session> session;

    private final BooleanSupplier warm;

    private final LongSupplier nanoTime;

    private volatile long lastAnswer;

    private volatile boolean answeredSinceCompaction;

    private volatile BooleanSupplier jobRunning = () -> false;

    private final ScheduledExecutorService idle = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "code-memory-idle");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param session serve's database session (null until it is held)
     * @param warm whether warm-up is done: no idle compaction before
     */
    MemoryHousekeeping(Supplier<DuckDb.Session> session, BooleanSupplier warm) {
        this(session, warm, System::nanoTime);
    }

    MemoryHousekeeping(Supplier<DuckDb.Session> session, BooleanSupplier warm, LongSupplier nanoTime) {
        this.session = session;
        this.warm = warm;
        this.nanoTime = nanoTime;
        this.lastAnswer = nanoTime.getAsLong();
    }

    /** Keeps the heap near what is live from now on; before warm-up starts. */
    void keepHeapNearLive() {
        ProcessMemory.keepHeapNearLive();
    }

    /**
     * Checks every {@value #IDLE_CHECK_SECONDS} s whether serve is idle
     * ({@link #compactWhenIdle}).
     */
    void watchIdle() {
        idle.scheduleWithFixedDelay(this::compactWhenIdle, IDLE_CHECK.toMillis(), IDLE_CHECK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** No idle compaction while a job runs (it gives back what it took when it ends). */
    void skipCompactionWhile(BooleanSupplier jobRunning) {
        this.jobRunning = jobRunning;
    }

    /**
     * A request other than a ping was answered: the heap and DuckDB's cache may have
     * grown for it.
     */
    void answered() {
        lastAnswer = nanoTime.getAsLong();
        answeredSinceCompaction = true;
    }

    /**
     * Once serve has answered and then been idle for {@link #IDLE_BEFORE_COMPACTION},
     * gives back what answering took ({@link #returnMemory}): G1 grows its young
     * generation and heap under a burst of queries (100k memories, 440 searches back to
     * back: 737 MB of heap committed for 253 MB live) and its own idle collection is
     * concurrent, which does not shrink them. A full collection of ~250 MB live takes a
     * few hundred ms; a prompt that comes in meanwhile waits for it, well inside the
     * hook's budget. Whether it did.
     */
    boolean compactWhenIdle() {
        if (warm.getAsBoolean() && answeredSinceCompaction && !jobRunning.getAsBoolean()
                && nanoTime.getAsLong() - lastAnswer > IDLE_BEFORE_COMPACTION.toNanos()) {
            answeredSinceCompaction = false;
            long start = System.nanoTime();
            returnMemory();
            log.debug("idle: memory returned in {} ms", (System.nanoTime() - start) / 1_000_000);
            return true;
        }
        return false;
    }

    /**
     * Gives back what loading the indexes (or a job) took and no longer needs: DuckDB's
     * cached pages (100k memories: the vector table and the memories read once, ~180 MB,
     * and what its allocator held on to after the reads), the heap's garbage, and the C
     * heap's free memory ({@link ProcessMemory#trimNativeHeap}).
     */
    void returnMemory() {
        DuckDb.Session s = session.get();
        if (s != null) {
            try {
                long[] bytes = s.shrinkCache(DATABASE_CACHE_KEPT);
                log.info("database cache {} MB -> {} MB", bytes[0] >> 20, bytes[1] >> 20);
            }
            catch (RuntimeException e) {
                log.warn("cannot shrink the database cache: {}", e.getMessage());
            }
        }
        ProcessMemory.returnGarbage();
    }

    /** Stops the idle checks. */
    void stop() {
        idle.shutdownNow();
    }

}
