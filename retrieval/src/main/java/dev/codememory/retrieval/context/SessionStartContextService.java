package dev.codememory.retrieval.context;

import dev.codememory.config.graduate.Citation;
import dev.codememory.config.team.TeamMemory;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.processors.task.TaskStatus;
import dev.codememory.processors.turns.MemoryTalk;
import dev.codememory.processors.turns.SessionAssembler;
import dev.codememory.processors.turns.TranscriptSource;
import dev.codememory.processors.workingset.Continuation;
import dev.codememory.processors.workingset.WorkingSet;
import dev.codememory.processors.workingset.WorkingSetBuilder;
import dev.codememory.readers.context.SessionStartQueries.LastSession;
import dev.codememory.readers.context.SessionStartQueries.MemoryText;
import dev.codememory.readers.context.SessionStartQueries.TaskLine;
import dev.codememory.readers.context.SessionStartQueries;
import dev.codememory.readers.continuity.ContinuityQueries;
import dev.codememory.readers.injection.InjectionQueries;
import dev.codememory.readers.workingset.WorkingSetQueries.SessionSeen;
import dev.codememory.readers.workingset.WorkingSetQueries;
import dev.codememory.retrieval.citation.CitationQueries;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * SessionStart's context for a project — also the continuity block a prompt that asks to
 * pick up where the work was left gets: the last session's summary, at most
 * {@value #MAX_TASKS} open tasks (those the last session left open first, and no task
 * untouched for {@value #STALE_DAYS} days before that session), and stated preferences,
 * each cited, within {@link #BUDGET}. Read from a read-only database (no model: this is a
 * few small queries).
 */
public final class SessionStartContextService {

    static final int MAX_TASKS = 12;
    static final int MAX_PREFERENCES = 8;

    /**
     * In endless mode, at most this many active topics, the most recently continued
     * first.
     */
    static final int MAX_TOPICS = 3;

    /** The continuity that sizes the working set is the mean of this many sessions. */
    static final int CONTINUITY_SESSIONS = 3;

    /**
     * The SessionStart sources after which the work goes on: the working set comes first.
     */
    static final Set<String> INTERRUPTED = Set.of("compact", "clear", "resume");

    /**
     * The last session is the newest of this many that worked (a run of more sessions
     * that only talked to the memory leaves none).
     */
    static final int SESSIONS_LOOKED_AT = 10;

    /** At most this many of a session's newest events are read for its working set. */
    static final int WORKING_SET_EVENTS = 2_000;

    /**
     * An open task whose newest statement is older than this before the last session is
     * not shown at start.
     */
    static final int STALE_DAYS = 14;

    /** At most 6,000 characters: the start of a session should orient, not flood. */
    static final ContextBudget BUDGET = new ContextBudget(1_500, 6_000);

    /**
     * The context and, for each citation in it, the memory it names; and when asked for,
     * the citations of the continuity blocks the session's context already holds as far
     * as the database knows ({@link InjectionQueries#continuityShown}; empty when not
     * asked).
     */
    public record Outcome(SessionStartContext context, Map<String, String> memoryOfCitation,
            Set<String> shownInSession) {
    }

    /** At most this many memories teammates published, newest first. */
    static final int MAX_TEAM = 5;

    /** The kinds of teammates' memories a new session is shown. */
    static final Set<String> TEAM_KINDS = Set.of("decision", "preference", "fact");

    /** How long a session's start waits for the team store. */
    public static final java.time.Duration TEAM_WAIT = java.time.Duration.ofMillis(500);

    private final java.util.function.Supplier<SessionLease> sessions;

    private final java.util.function.Function<String, List<TeamMemory>> team;

    /** Opens the database read-only for each answer. */
    public SessionStartContextService(DuckDb duckDb) {
        this(() -> SessionLease.openReadOnly(duckDb));
    }

    /** Answers on the sessions given (the resident process lends its own). */
    public SessionStartContextService(java.util.function.Supplier<SessionLease> sessions) {
        this(sessions, project -> List.of());
    }

    /**
     * Answers on the sessions given, with what teammates published for the project
     * ({@code team}: the team store's memories of a project, empty when it is off or does
     * not answer).
     */
    public SessionStartContextService(java.util.function.Supplier<SessionLease> sessions,
            java.util.function.Function<String, List<TeamMemory>> team) {
        this.sessions = sessions;
        this.team = team;
    }

    /**
     * The teammates' decisions, preferences and facts of the project, newest first, at
     * most {@value #MAX_TEAM}.
     */
    static List<TeamLine> teamLines(List<TeamMemory> published) {
        return published.stream()
            .filter(m -> TEAM_KINDS.contains(m.kind()) && !m.title().isBlank())
            .sorted(java.util.Comparator.comparing(TeamMemory::createdTs)
                .reversed()
                .thenComparing(TeamMemory::memoryId))
            .limit(MAX_TEAM)
            .map(m -> new TeamLine(m.kind(), m.title(), m.author(), m.createdTs(), Citation.PREFIX + m.citation()))
            .toList();
    }

    Outcome contextFor(String project, String sessionId, String source, SpooledEvents spooled, boolean shownInSession,
            boolean endless, ContextBudgetClock clock)
            throws TimeoutException, ExecutionException, InterruptedException {
        return clock.await(clock.start(() -> contextFor(project, sessionId, source, spooled, shownInSession, endless)));
    }

    public Outcome contextFor(String project, String sessionId) throws SQLException {
        return contextFor(project, sessionId, null, SpooledEvents.NONE, false, false);
    }

    /**
     * @param shownInSession whether to read what continuity blocks the session was shown
     * already (for a prompt that asks to continue)
     * @param endless whether the home is in {@link dev.codememory.config.home.EndlessMode
     * endless mode}
     */
    public Outcome contextFor(String project, String sessionId, String source, SpooledEvents spooled,
            boolean shownInSession, boolean endless) throws SQLException {
        List<TeamLine> teamLines = project == null ? List.of() : teamLines(team.apply(project));
        try (SessionLease lease = sessions.get(); Connection c = lease.session().connection()) {
            Outcome outcome = contextFor(c, project, sessionId, source, spooled, endless, teamLines);
            if (!shownInSession || sessionId == null) {
                return outcome;
            }
            return new Outcome(outcome.context(), outcome.memoryOfCitation(),
                    InjectionQueries.continuityShown(c, sessionId));
        }
    }

    /** The context on an open connection, for a session that starts afresh. */
    public static Outcome contextFor(Connection c, String project, String sessionId) throws SQLException {
        return contextFor(c, project, sessionId, null, SpooledEvents.NONE, false);
    }

    /**
     * The context on an open connection.
     * @param source the SessionStart's {@code source}: with {@code compact},
     * {@code clear} or {@code resume} the context opens with the session's
     * {@link #workingSet working set}; with {@code startup}, with the last session's when
     * that one is recent and not summarized yet ({@link #unsummarized}); null or anything
     * else, without
     * @param spooled the session's events not ingested yet
     * @param endless endless mode: the project's active topics take the place of the last
     * session's summary (which is still shown when there are none), and at a fresh start
     * the last session's working set is shown whenever that session is recent, as much of
     * it as the project's {@link #continuation continuity} calls for
     */
    public static Outcome contextFor(Connection c, String project, String sessionId, String source,
            SpooledEvents spooled, boolean endless) throws SQLException {
        return contextFor(c, project, sessionId, source, spooled, endless, List.of());
    }

    /**
     * The same, with what teammates published for the project last.
     * @param team teammates' memories to show ({@link #teamLines})
     */
    static Outcome contextFor(Connection c, String project, String sessionId, String source, SpooledEvents spooled,
            boolean endless, List<TeamLine> team) throws SQLException {
        WorkingSet workingSet = source != null && INTERRUPTED.contains(source)
                ? workingSet(c, project, sessionId, source, spooled) : null;
        Optional<LastSession> summary = SessionStartQueries.lastSession(c, project, sessionId);
        List<MemoryText> topics = endless ? SessionStartQueries.activeTopics(c, project, MAX_TOPICS) : List.of();
        if ("startup".equals(source)) {
            workingSet = endless ? continuation(c, project, sessionId, spooled)
                    : unsummarized(c, project, sessionId, summary, spooled);
        }
        LocalDateTime horizon = summary.map(LastSession::endedAt)
            .orElse(LocalDateTime.now(ZoneOffset.UTC))
            .minusDays(STALE_DAYS);
        List<TaskLine> tasks = SessionStartQueries.openTasks(c, project,
                summary.map(LastSession::sessionId).orElse(null), horizon, MAX_TASKS);
        List<MemoryText> preferences = SessionStartQueries.preferences(c, project, MAX_PREFERENCES);
        List<String> ids = new ArrayList<>();
        summary.ifPresent(s -> ids.add(s.memoryId()));
        topics.forEach(t -> ids.add(t.memoryId()));
        tasks.forEach(t -> ids.add(t.memoryId()));
        preferences.forEach(p -> ids.add(p.memoryId()));
        Map<String, String> citations = CitationQueries.citationsOf(c, ids);
        List<CitedText> active = topics.stream()
            .filter(t -> citations.containsKey(t.memoryId()))
            .map(t -> new CitedText(t.text(), citations.get(t.memoryId())))
            .toList();
        CitedText last = summary.filter(s -> active.isEmpty() && citations.containsKey(s.memoryId()))
            .map(s -> new CitedText(s.text(), citations.get(s.memoryId())))
            .orElse(null);
        List<OpenTask> open = tasks.stream()
            .filter(t -> citations.containsKey(t.memoryId()))
            .map(t -> new OpenTask(t.title(), TaskStatus.parse(t.status()), t.blockers(), citations.get(t.memoryId())))
            .toList();
        List<CitedText> stated = preferences.stream()
            .filter(p -> citations.containsKey(p.memoryId()))
            .map(p -> new CitedText(p.text(), citations.get(p.memoryId())))
            .toList();
        Map<String, String> memoryOfCitation = new HashMap<>();
        citations.forEach((memory, citation) -> memoryOfCitation.put(citation, memory));
        return new Outcome(new SessionStartContextBuilder(BUDGET).build(workingSet, last, active, open, stated, team),
                memoryOfCitation, Set.of());
    }

    /**
     * The working set of the session whose work was interrupted, from its raw events (no
     * graduation), whatever its age: the starting session's own after a compaction or a
     * resume (Claude Code keeps the session id). When the starting session has nothing to
     * show yet (its own SessionStart at most) after a {@code /clear}, or after a
     * compaction that went on in a new session id (older Claude Code versions), it is the
     * project's newest other session's ({@link #previousSession}, database or spool, of
     * any age); and a session that opens with a compaction summary carries on the working
     * set of the session before its first event ({@link WorkingSet#continuing}). At most
     * {@value #WORKING_SET_EVENTS} events of a session are read from the database,
     * followed by the session's events still in the spool (ingest runs every minute, so
     * the last minute before a compaction is there).
     */
    static WorkingSet workingSet(Connection c, String project, String sessionId, String source, SpooledEvents spooled)
            throws SQLException {
        WorkingSet own = sessionId == null ? null : workingSetOf(c, project, sessionId, spooled);
        if ((own == null || own.isEmpty()) && ("clear".equals(source) || "compact".equals(source))) {
            Optional<String> previous = lastWorkingSession(c, project, sessionId, spooled, null);
            if (previous.isPresent()) {
                return workingSetOf(c, project, previous.get(), spooled);
            }
        }
        return own;
    }

    /**
     * A session's working set; when it opens with a compaction summary
     * ({@link WorkingSetBuilder#continuesAnother}), carried on from that of the project's
     * session whose newest event came before its first ({@link WorkingSet#continuing}).
     */
    static WorkingSet workingSetOf(Connection c, String project, String sessionId, SpooledEvents spooled)
            throws SQLException {
        WorkingSetBuilder builder = new WorkingSetBuilder(TranscriptTail.INSTANCE);
        List<StoredEvent> events = eventsOf(c, sessionId, spooled);
        WorkingSet set = builder.build(sessionId, events);
        if (!WorkingSetBuilder.continuesAnother(events)) {
            return set;
        }
        LocalDateTime first = events.stream().map(StoredEvent::ts).min(LocalDateTime::compareTo).orElseThrow();
        Optional<String> continued = previousSession(c, project, sessionId, null, first, spooled);
        return continued.isEmpty() ? set
                : set.continuing(builder.build(continued.get(), eventsOf(c, continued.get(), spooled)));
    }

    /**
     * The project's newest session other than {@code sessionId}, in the database or still
     * in the spool (without {@code serve} a session stays there until a job ingests it),
     * whose newest event is not older than {@code since} (null: any age) and not newer
     * than {@code until} (null: any).
     */
    static Optional<String> previousSession(Connection c, String project, String sessionId, LocalDateTime since,
            LocalDateTime until, SpooledEvents spooled) throws SQLException {
        Optional<SessionSeen> stored = WorkingSetQueries.newestSession(c, project, sessionId, since, until);
        Optional<SessionSeen> spool = project == null ? Optional.empty()
                : spooled.newestSession(project, sessionId, since, until);
        if (spool.isPresent() && (stored.isEmpty() || spool.get().lastTs().isAfter(stored.get().lastTs()))) {
            return spool.map(SessionSeen::sessionId);
        }
        return stored.map(SessionSeen::sessionId);
    }

    /**
     * At a fresh start, the working set of the project's last session when it is not
     * summarized yet — not graduated (without {@code serve}, still in the spool), or
     * graduated while it went on — whatever its age: a session that has its summary is
     * shown by it instead. Null when there is none.
     */
    static WorkingSet unsummarized(Connection c, String project, String sessionId, Optional<LastSession> summary,
            SpooledEvents spooled) throws SQLException {
        Optional<String> previous = lastWorkingSession(c, project, sessionId, spooled, null);
        if (previous.isEmpty() || summary.map(LastSession::sessionId).filter(previous.get()::equals).isPresent()) {
            return null;
        }
        WorkingSet set = workingSetOf(c, project, previous.get(), spooled);
        return set.isEmpty() ? null : set;
    }

    /**
     * In endless mode, at a fresh start: the working set of the project's last session
     * when it had an event in the last {@link WorkingSetBuilder#WINDOW}, summarized or
     * not, cut to what the project's continuity calls for ({@link Continuation}: the mean
     * score of its last {@value #CONTINUITY_SESSIONS} scored sessions). Null when there
     * is none.
     */
    static WorkingSet continuation(Connection c, String project, String sessionId, SpooledEvents spooled)
            throws SQLException {
        Optional<String> previous = lastWorkingSession(c, project, sessionId, spooled,
                LocalDateTime.now(ZoneOffset.UTC).minus(WorkingSetBuilder.WINDOW));
        if (previous.isEmpty()) {
            return null;
        }
        Continuation level = Continuation
            .of(ContinuityQueries.mean(ContinuityQueries.recent(c, project, CONTINUITY_SESSIONS)));
        WorkingSet set = level.cut(workingSetOf(c, project, previous.get(), spooled));
        return set.isEmpty() ? null : set;
    }

    /**
     * The working set of the project's newest session with an event in the last
     * {@link WorkingSetBuilder#WINDOW}, whole; null when there is none ({@code endless
     * working-set}).
     */
    public static WorkingSet latestWorkingSet(Connection c, String project, SpooledEvents spooled) throws SQLException {
        Optional<String> newest = lastWorkingSession(c, project, null, spooled,
                LocalDateTime.now(ZoneOffset.UTC).minus(WorkingSetBuilder.WINDOW));
        return newest.isEmpty() ? null : workingSetOf(c, project, newest.get(), spooled);
    }

    /**
     * The project's newest session other than {@code sessionId} with an event not older
     * than {@code since} (null: of any age) that worked ({@link MemoryTalk#works}): among
     * the newest {@value #SESSIONS_LOOKED_AT}, one that did more than talk to the memory
     * — not a {@code mem-save}, a session that only asked where the work was, or one
     * whose questions were answered from memory. The newest session the spool holds comes
     * first (without serve it may not be ingested yet); each is read from the database,
     * the first also from the spool. Empty when none of them worked.
     */
    static Optional<String> lastWorkingSession(Connection c, String project, String sessionId, SpooledEvents spooled,
            LocalDateTime since) throws SQLException {
        SessionAssembler assembler = new SessionAssembler(TranscriptSource.NONE);
        List<String> candidates = new ArrayList<>(
                SessionStartQueries.recentSessions(c, project, sessionId, since, SESSIONS_LOOKED_AT));
        Optional<SessionSeen> spool = project == null ? Optional.empty()
                : spooled.newestSession(project, sessionId, since, null);
        if (spool.isPresent()) {
            // what the spool holds is newer than what was ingested: its session first
            candidates.remove(spool.get().sessionId());
            candidates.add(0, spool.get().sessionId());
        }
        for (String candidate : candidates) {
            List<StoredEvent> events = new ArrayList<>(
                    SessionStartQueries.talkEvents(c, candidate, WORKING_SET_EVENTS));
            if (candidate.equals(candidates.get(0))) {
                // the spool is read for the newest only: a session start reads it once
                Set<String> ingested = new java.util.HashSet<>();
                events.forEach(e -> ingested.add(e.eventId()));
                spooled.of(candidate).stream().filter(e -> ingested.add(e.eventId())).forEach(events::add);
            }
            if (events.isEmpty()) {
                continue;
            }
            AssembledSession session = assembler.assemble(events);
            if (MemoryTalk.works(session.turns(), session.observations())) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The working set as SessionStart shows it, alone, within its share of the budget.
     */
    public static String shown(WorkingSet set) {
        return new SessionStartContextBuilder(BUDGET).build(set, null, List.of(), List.of()).text();
    }

    /** The session's ingested events, then those of its spooled events not ingested. */
    private static List<StoredEvent> eventsOf(Connection c, String sessionId, SpooledEvents spooled)
            throws SQLException {
        List<StoredEvent> events = new ArrayList<>(WorkingSetQueries.sessionEvents(c, sessionId, WORKING_SET_EVENTS));
        Set<String> ingested = new java.util.HashSet<>();
        events.forEach(e -> ingested.add(e.eventId()));
        spooled.of(sessionId).stream().filter(e -> ingested.add(e.eventId())).forEach(events::add);
        return events;
    }

}
