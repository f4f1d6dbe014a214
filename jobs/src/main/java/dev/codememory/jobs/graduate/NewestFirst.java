package dev.codememory.jobs.graduate;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.readers.turns.SessionEventQueries;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.flow.FlowExecutionStatus;
import org.springframework.batch.core.job.flow.JobExecutionDecider;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Newest first: when the events to graduate include a backlog of older sessions (the
 * first import of months of history), the stages run first on the sessions of the
 * {@value #WINDOW_DAYS} days before the newest event — which are then searchable, their
 * memories embedded, within minutes — and then on everything else.
 *
 * <p>
 * The decision is taken once per job execution, after ingest, and kept in the job's
 * execution context with the time the recent pass starts from ({@value #SINCE}); the
 * step-scoped readers of the recent pass read only items of that time or later
 * ({@code PendingItemReader.since}), and the pass ends by removing it. A restarted
 * execution takes the same path: the recent pass again while its time is there (its
 * finished steps find nothing left in the window), else straight to the rest.
 */
public final class NewestFirst implements JobExecutionDecider {

    private static final Logger log = LoggerFactory.getLogger(NewestFirst.class);

    /** How far back from the newest event the first pass reaches. */
    public static final int WINDOW_DAYS = 14;

    /**
     * Older sessions needed for a first pass: fewer are graduated together with the
     * recent ones, as a second pass would cost more than it saves.
     */
    public static final int MIN_OLDER_SESSIONS = 50;

    /** The job context key of the recent pass's start time, while it runs. */
    public static final String SINCE = "newestFirst.since";

    private static final String DECIDED = "newestFirst.decided";

    public static final FlowExecutionStatus RECENT = new FlowExecutionStatus("RECENT");

    public static final FlowExecutionStatus ALL = new FlowExecutionStatus("ALL");

    private final JobDatabase database;

    public NewestFirst(JobDatabase database) {
        this.database = database;
    }

    @Override
    public FlowExecutionStatus decide(JobExecution jobExecution, StepExecution stepExecution) {
        ExecutionContext context = jobExecution.getExecutionContext();
        if (!context.containsKey(DECIDED)) {
            context.putString(DECIDED, "yes");
            LocalDateTime since = backlogSince();
            if (since != null) {
                context.putString(SINCE, since.toString());
            }
        }
        return context.containsKey(SINCE) ? RECENT : ALL;
    }

    /**
     * The start of the recent window when sessions on both sides of it wait for
     * graduation and at least {@value #MIN_OLDER_SESSIONS} of them are older, else null.
     */
    private LocalDateTime backlogSince() {
        try (Connection c = database.connection(); Statement st = c.createStatement()) {
            LocalDateTime since;
            try (ResultSet rs = st.executeQuery("SELECT max(ts) FROM events")) {
                rs.next();
                LocalDateTime newest = rs.getObject(1, LocalDateTime.class);
                if (newest == null) {
                    return null;
                }
                since = newest.minus(Duration.ofDays(WINDOW_DAYS));
            }
            try (ResultSet rs = st.executeQuery("""
                    SELECT count(*) FILTER (WHERE ts < TIMESTAMP '%1$s'), count(*) FILTER (WHERE ts >= TIMESTAMP '%1$s')
                    FROM (%2$s) pending(session_id, ts)""".formatted(since,
                    SessionEventQueries.SESSIONS_TO_ASSEMBLE))) {
                rs.next();
                long older = rs.getLong(1);
                long recent = rs.getLong(2);
                if (older < MIN_OLDER_SESSIONS || recent == 0) {
                    return null;
                }
                log.info("graduating the newest sessions first: {} since {}, then {} older ones", recent, since, older);
                return since;
            }
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot measure the graduation backlog: " + e.getMessage(), e);
        }
    }

    /** The start time of the recent pass, if the step runs in it; null otherwise. */
    public static LocalDateTime since(String contextValue) {
        return contextValue == null || contextValue.isEmpty() ? null : LocalDateTime.parse(contextValue);
    }

}
