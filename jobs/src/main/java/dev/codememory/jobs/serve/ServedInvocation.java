package dev.codememory.jobs.serve;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.jobs.invocation.Invocation;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.retrieval.context.PromptContextService.QueryLease;
import dev.codememory.retrieval.context.SessionLease;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;

/**
 * A command line carried out inside {@code serve} for a caller on its socket: the
 * caller's directory, time zone and terminal, serve's home, the database session serve
 * owns (lent, never closed by the command), and serve's own application context for the
 * commands that need the jobs' wiring ({@code forget}, {@code import --transcripts}), run
 * when no job is running and followed by a refresh of the indexes, since such work may
 * have removed memories.
 */
record ServedInvocation(Path cwd, ZoneId zone, boolean terminal, CodeMemoryHome home, ResidentQueries resident,
        ApplicationContext context, JobRunner jobs) implements Invocation {

    private static final Logger log = LoggerFactory.getLogger(ServedInvocation.class);

    @Override
    public void logToStderr() {
        // serve logs to logs/jobs.log and its console; a command run here keeps that
    }

    @Override
    public SessionLease read() {
        return SessionLease.lent(resident.session());
    }

    @Override
    public int withJobs(boolean verbose, ToIntFunction<ApplicationContext> work) {
        // serve's console is its log: --verbose changes nothing here
        int exit = jobs.exclusively(() -> work.applyAsInt(context));
        try {
            resident.refresh();
        }
        catch (RuntimeException e) {
            log.warn("refreshing the indexes after a command failed; the next job retries: {}", e.getMessage());
        }
        return exit;
    }

    @Override
    public Function<RankingSettings, QueryLease> residentQueries() {
        return settings -> new QueryLease(SessionLease.lent(resident.session()), resident.queryService(settings));
    }

}
