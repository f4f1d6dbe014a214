package dev.codememory.jobs.context;

import dev.codememory.config.db.DuckDb;
import dev.codememory.processors.context.CitedText;
import dev.codememory.processors.context.OpenTask;
import dev.codememory.processors.context.SessionStartContext;
import dev.codememory.processors.context.SessionStartContextBuilder;
import dev.codememory.processors.task.TaskStatus;
import dev.codememory.readers.citation.CitationQueries;
import dev.codememory.readers.context.SessionStartQueries;
import dev.codememory.readers.context.SessionStartQueries.MemoryText;
import dev.codememory.readers.context.SessionStartQueries.TaskLine;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * SessionStart's context for a project: the last session's summary, open and blocked tasks and stated
 * preferences, each cited, read from a read-only database (no model: this is a few small queries).
 */
public final class SessionStartContextService {

    static final int MAX_TASKS = 20;
    static final int MAX_PREFERENCES = 10;

    /** The context and, for each citation in it, the memory it names. */
    public record Outcome(SessionStartContext context, Map<String, String> memoryOfCitation) {
    }

    private final java.util.function.Supplier<SessionLease> sessions;

    /** Opens the database read-only for each answer. */
    public SessionStartContextService(DuckDb duckDb) {
        this(() -> SessionLease.openReadOnly(duckDb));
    }

    /** Answers on the sessions given (the resident process lends its own). */
    public SessionStartContextService(java.util.function.Supplier<SessionLease> sessions) {
        this.sessions = sessions;
    }

    Outcome contextFor(String project, String sessionId, ContextBudgetClock clock)
            throws TimeoutException, ExecutionException, InterruptedException {
        return clock.await(clock.start(() -> contextFor(project, sessionId)));
    }

    public Outcome contextFor(String project, String sessionId) throws SQLException {
        try (SessionLease lease = sessions.get(); Connection c = lease.session().connection()) {
            Optional<MemoryText> summary = SessionStartQueries.lastSessionSummary(c, project, sessionId);
            List<TaskLine> tasks = SessionStartQueries.openTasks(c, project, MAX_TASKS);
            List<MemoryText> preferences = SessionStartQueries.preferences(c, project, MAX_PREFERENCES);
            List<String> ids = new ArrayList<>();
            summary.ifPresent(s -> ids.add(s.memoryId()));
            tasks.forEach(t -> ids.add(t.memoryId()));
            preferences.forEach(p -> ids.add(p.memoryId()));
            Map<String, String> citations = CitationQueries.citationsOf(c, ids);
            CitedText last = summary.filter(s -> citations.containsKey(s.memoryId()))
                    .map(s -> new CitedText(s.text(), citations.get(s.memoryId()))).orElse(null);
            List<OpenTask> open = tasks.stream().filter(t -> citations.containsKey(t.memoryId()))
                    .map(t -> new OpenTask(t.title(), TaskStatus.parse(t.status()), t.blockers(),
                            citations.get(t.memoryId()))).toList();
            List<CitedText> stated = preferences.stream().filter(p -> citations.containsKey(p.memoryId()))
                    .map(p -> new CitedText(p.text(), citations.get(p.memoryId()))).toList();
            Map<String, String> memoryOfCitation = new java.util.HashMap<>();
            citations.forEach((memory, citation) -> memoryOfCitation.put(citation, memory));
            return new Outcome(new SessionStartContextBuilder().build(last, open, stated), memoryOfCitation);
        }
    }
}
