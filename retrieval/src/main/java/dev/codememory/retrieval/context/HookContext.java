package dev.codememory.retrieval.context;

import dev.codememory.capture.spool.EventIdentity;
import dev.codememory.config.db.DatabaseLockedException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.home.EndlessMode;
import dev.codememory.config.injection.Injection;
import dev.codememory.config.json.Json;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.processors.turns.Prompts;
import dev.codememory.retrieval.components.VectorComponents;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.ranking.RankingSettings;
import dev.codememory.writers.injection.InjectionRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What the hook prints after it has spooled a UserPromptSubmit or SessionStart event:
 * Claude Code's {@code {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}}
 * with cited memories, or nothing.
 *
 * <p>
 * Capture comes first and never depends on this: the caller has already appended the
 * line. Here the database is opened read-only (a hook never writes to it: only jobs and
 * serve do), within the time budget; every way of not answering — no database yet, a job
 * holding it, past the budget, nothing relevant — prints nothing and, except for "nothing
 * relevant", leaves one line in {@code logs/hook.log}. Each injection is recorded by
 * appending an injection line to the spool (which citations, which session, which prompt
 * event), loaded by the next ingest. {@code CODE_MEMORY_CONTEXT=off} turns injection off.
 */
public final class HookContext {

    private HookContext() {
    }

    /**
     * What answers: the services of the hook's own process, which open the database
     * read-only for this one answer ({@link #cold}), or those of the resident
     * {@code serve} process, warm.
     */
    public interface Services {

        PromptContextService prompts();

        SessionStartContextService sessionStarts();

        /** {@code cold} or {@code serve}: recorded in each answer's log line. */
        String source();

    }

    /**
     * This process's own services: the database opened read-only per answer, the model
     * only if the budget allows.
     */
    public static Services cold(CodeMemoryHome home) {
        DuckDb duckDb = DuckDb.forHome(home);
        return new Services() {
            @Override
            public PromptContextService prompts() {
                return new PromptContextService(duckDb, VectorComponents.forHome(home), RankingSettings.defaults());
            }

            @Override
            public SessionStartContextService sessionStarts() {
                return new SessionStartContextService(duckDb);
            }

            @Override
            public String source() {
                return "cold";
            }
        };
    }

    /**
     * The hook's stdout for this spool line, or null for none, answered in this process.
     * @param log where a reason for not answering goes: (where, failure)
     * @param info where a one-line account of an answer goes (counts, band, timing; never
     * text)
     */
    public static String respond(CodeMemoryHome home, String spoolLine, Instant started,
            BiConsumer<String, Throwable> log, Consumer<String> info) {
        return respond(home, spoolLine, started, ContextBudgetClock.budgetFromEnvironment(), log, info, cold(home));
    }

    /**
     * The hook's stdout for this spool line, or null for none, answered by
     * {@code services} within {@code budget} of {@code started}.
     */
    public static String respond(CodeMemoryHome home, String spoolLine, Instant started, Duration budget,
            BiConsumer<String, Throwable> log, Consumer<String> info, Services services) {
        Map<?, ?> envelope;
        Map<?, ?> event;
        try {
            if (!(Json.parse(spoolLine) instanceof Map<?, ?> e) || !(e.get("event") instanceof Map<?, ?> ev)) {
                return null;
            }
            envelope = e;
            event = ev;
        }
        catch (RuntimeException e) {
            return null;
        }
        String name = text(event, "hook_event_name");
        if (!"UserPromptSubmit".equals(name) && !"SessionStart".equals(name)) {
            return null;
        }
        if ("off".equalsIgnoreCase(String.valueOf(System.getenv("CODE_MEMORY_CONTEXT")))
                || !home.database().toFile().exists()) {
            return null;
        }
        String where = name + " context";
        try {
            String project = new ProjectResolver().projectOf(text(event, "cwd") == null ? "" : text(event, "cwd"));
            ContextBudgetClock clock = new ContextBudgetClock(started, budget);
            String sessionId = text(event, "session_id");
            if ("SessionStart".equals(name)) {
                return continuity(home, envelope, name, "session_start", sessionId, text(event, "source"), project,
                        services, clock, started, log, info);
            }
            String prompt = text(event, "prompt");
            if (prompt == null || !Prompts.isSubstantive(prompt)) {
                return null;
            }
            if (Prompts.asksToContinue(prompt)) {
                return continuity(home, envelope, name, "continuity", sessionId, null, project, services, clock,
                        started, log, info);
            }
            PromptContextService.Outcome outcome = services.prompts().contextFor(project, prompt, clock);
            InjectedContext context = outcome.context();
            String account = String.format(Locale.ROOT, "%s: %d hits, band %s, %s, %s", where, outcome.hits().size(),
                    context.band().name().toLowerCase(Locale.ROOT), context.reason().name().toLowerCase(Locale.ROOT),
                    outcome.semantic() ? "text and vectors" : "text only (no vectors within the budget)");
            String fields = " " + outcome.splitText() + " source=" + services.source() + " vectors="
                    + outcome.semantic();
            if (context.isEmpty()) {
                info.accept(account + ", nothing injected, " + Duration.between(started, Instant.now()).toMillis()
                        + " ms" + fields);
                return null;
            }
            Map<String, QueryResult> byCitation = new LinkedHashMap<>();
            outcome.hits().forEach(h -> byCitation.putIfAbsent(h.citation(), h));
            List<Injection.Item> items = new ArrayList<>();
            for (String citation : context.citations()) {
                QueryResult hit = byCitation.get(citation);
                if (hit != null) {
                    items.add(new Injection.Item(citation, hit.memoryId(), items.size() + 1, hit.score()));
                }
            }
            long recording = System.nanoTime();
            record(home, new Injection(sessionId, EventIdentity.eventIdOf(envelope), name, Instant.now(),
                    context.band().name().toLowerCase(Locale.ROOT), context.text().length(), items), log);
            info.accept(account + ", " + items.size() + " memories, " + context.text().length() + " chars, "
                    + Duration.between(started, Instant.now()).toMillis() + " ms" + fields + " withheld="
                    + context.withheld() + " record=" + (System.nanoTime() - recording) / 1_000_000);
            return output(name, context.text());
        }
        catch (TimeoutException e) {
            log.accept(where, new TimeoutException("skipped: not ready within the budget of " + budget.toMillis()
                    + " ms (source=" + services.source() + ")"));
        }
        catch (DatabaseLockedException e) {
            log.accept(where + " skipped, a job holds the database", e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        catch (Exception e) {
            log.accept(where, e);
        }
        return null;
    }

    /**
     * The continuity block: what SessionStart shows — the last session's summary, its
     * open tasks, preferences — and what a prompt that asks to pick up where the work was
     * left ("where were we?", "what's next?") gets instead of a search, whose words
     * ("where", "next") would find nothing useful. Such a prompt, and a SessionStart that
     * resumes a session ({@code claude --continue}, {@code --resume}), get nothing when
     * every memory of the block is in the session's context already
     * ({@link ContinuityShown}): Claude Code restores a resumed session's transcript with
     * the context hooks gave it, so the block shown at its start, or at its last
     * {@code /compact}, is there again, and a second copy would only cost the model's
     * attention (measured with the real client: after {@code /compact}, the next
     * {@code --continue} sent the block twice in one request). When the block has changed
     * since (graduation ran, a task closed), it is given whole.
     * @param band how the injection is recorded: {@code session_start} or
     * {@code continuity}
     * @param source the SessionStart's {@code source} ({@code startup}, {@code resume},
     * {@code clear}, {@code compact}); null for a prompt
     */
    private static String continuity(CodeMemoryHome home, Map<?, ?> envelope, String hookEventName, String band,
            String sessionId, String source, String project, Services services, ContextBudgetClock clock,
            Instant started, BiConsumer<String, Throwable> log, Consumer<String> info) throws Exception {
        boolean unlessShown = "continuity".equals(band) || "resume".equals(source);
        SessionStartContextService.Outcome outcome = services.sessionStarts()
            .contextFor(project, sessionId, source, SpooledEvents.of(home), unlessShown, EndlessMode.enabled(home),
                    clock);
        SessionStartContext context = outcome.context();
        if (context.isEmpty()) {
            return null;
        }
        if (unlessShown && sessionId != null && !context.citations().isEmpty()
                && ContinuityShown.citations(home, sessionId, outcome.shownInSession())
                    .containsAll(context.citations())) {
            info.accept(String.format(Locale.ROOT,
                    "%s context: %s, %d memories already in this session's context, nothing injected, %d ms "
                            + "source=%s vectors=false",
                    hookEventName, band, context.citations().size(),
                    Duration.between(started, Instant.now()).toMillis(), services.source()));
            return null;
        }
        List<Injection.Item> items = new ArrayList<>();
        for (String citation : context.citations()) {
            String memory = outcome.memoryOfCitation().get(citation);
            if (memory != null) {
                items.add(new Injection.Item(citation, memory, items.size() + 1, 1.0));
            }
        }
        record(home, new Injection(sessionId, EventIdentity.eventIdOf(envelope), hookEventName, Instant.now(), band,
                context.text().length(), items), log);
        long workingSetLines = context.citations().stream().filter(c -> c.startsWith("ev:")).count();
        info.accept(String.format(Locale.ROOT,
                "%s context: %s, %d memories, %d working-set citations, %d chars, %d ms source=%s vectors=false "
                        + "withheld=%d",
                hookEventName, band, items.size(), workingSetLines, context.text().length(),
                Duration.between(started, Instant.now()).toMillis(), services.source(), context.withheld()));
        return output(hookEventName, context.text());
    }

    /**
     * Claude Code's hook output for additional context
     * ({@code hookSpecificOutput.additionalContext}).
     */
    static String output(String hookEventName, String context) {
        Map<String, Object> specific = new LinkedHashMap<>();
        specific.put("hookEventName", hookEventName);
        specific.put("additionalContext", context);
        return Json.write(Map.of("hookSpecificOutput", specific));
    }

    private static void record(CodeMemoryHome home, Injection injection, BiConsumer<String, Throwable> log) {
        try {
            InjectionRecorder.record(home, injection);
        }
        catch (Exception e) {
            log.accept("recording an injection", e);
        }
    }

    private static String text(Map<?, ?> event, String key) {
        return event.get(key) instanceof String s ? s : null;
    }

}
