package dev.codememory.processors.distill;

import dev.codememory.config.distill.DistillAnswer;
import dev.codememory.config.distill.DistillCall;
import dev.codememory.config.distill.DistillLedger;
import dev.codememory.config.distill.DistillModel;
import dev.codememory.config.distill.DistillModelException;
import dev.codememory.config.distill.DistillOutcome;
import dev.codememory.config.distill.DistillRequest;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.config.distill.ProvenClaim;
import dev.codememory.config.distill.StoredAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * Distils one finished session: asks the model once, proves its claims, and records the
 * outcome in the ledger <em>before</em> any memory is stored from it, so that a session
 * answered is never sent again, whatever happens to the step after (a {@code kill -9}, a
 * rerun, a change of graduation rules: its proven claims are read back from the ledger).
 *
 * <p>
 * A session is sent only when its request fits the day's token budget (the calls the
 * ledger recorded today plus the request's worst case: its estimated input and the whole
 * output cap); otherwise it waits, unrecorded, for a later run (null: filtered). A model
 * that cannot be reached, answers 429, times out or answers in another shape costs an
 * attempt: the session is recorded as failed and asked again after a backoff that doubles
 * with each attempt, and given up after {@code maxAttempts}. A session too small to be
 * worth a request is recorded as skipped. Either way graduation goes on.
 */
public class SessionDistiller implements ItemProcessor<DistillSession, DistillOutcome> {

    private static final Logger log = LoggerFactory.getLogger(SessionDistiller.class);

    private final DistillModel model;

    private final DistillLedger ledger;

    private final DistillPrompt prompt;

    private final ClaimProof proof;

    private final DistilledMemories memories;

    private final String version;

    private final long dailyBudget;

    private final Duration backoff;

    private final int maxAttempts;

    private final Clock clock;

    private final Map<String, Integer> counts = new TreeMap<>();

    private final Map<String, Integer> rejected = new TreeMap<>();

    public SessionDistiller(DistillModel model, DistillLedger ledger, DistillPrompt prompt, ClaimProof proof,
            DistilledMemories memories, String version, long dailyBudget, Duration backoff, int maxAttempts,
            Clock clock) {
        this.model = model;
        this.ledger = ledger;
        this.prompt = prompt;
        this.proof = proof;
        this.memories = memories;
        this.version = version;
        this.dailyBudget = dailyBudget;
        this.backoff = backoff;
        this.maxAttempts = maxAttempts;
        this.clock = clock;
    }

    @Override
    public DistillOutcome process(DistillSession session) {
        Optional<StoredAnswer> stored = ledger.answer(session.sessionId(), version);
        int attempts = stored.map(StoredAnswer::attempts).orElse(0);
        if (stored.isPresent()) {
            StoredAnswer answer = stored.get();
            switch (answer.outcome()) {
                case StoredAnswer.ANSWERED -> {
                    count("answered before");
                    return outcome(session, answer.claims());
                }
                case StoredAnswer.SKIPPED, StoredAnswer.GAVE_UP -> {
                    return new DistillOutcome(session.sessionId(), version, List.of());
                }
                default -> {
                    if (answer.nextAttemptAt() != null && answer.nextAttemptAt().isAfter(now())) {
                        count("waiting to retry");
                        return null;
                    }
                }
            }
        }
        DistillRequest request = prompt.build(session);
        if (request == null) {
            ledger.record(null, session.sessionId(), version,
                    new StoredAnswer(StoredAnswer.SKIPPED, null, null, attempts, null), "too small");
            count("skipped (small)");
            return new DistillOutcome(session.sessionId(), version, List.of());
        }
        LocalDateTime at = now();
        if (ledger.tokensUsed(at.toLocalDate()) + request.worstCaseTokens() > dailyBudget) {
            count("deferred (daily budget)");
            return null;
        }
        DistillAnswer answer = null;
        try {
            answer = model.ask(request);
            ClaimProof.Proof proven = proof.prove(ClaimAnswer.parse(answer), session);
            ledger.record(callOf(session, at, request, answer, "answered"), session.sessionId(), version,
                    new StoredAnswer(StoredAnswer.ANSWERED, proven.proven(), proven.rejected(), attempts + 1, null),
                    null);
            count("answered");
            proven.rejected().forEach((reason, n) -> rejected.merge(reason, n, Integer::sum));
            counts.merge("claims proven", proven.proven().size(), Integer::sum);
            log.debug("distilled session {}: {} claims proven, rejected {}", session.sessionId(),
                    proven.proven().size(), proven.rejected());
            return outcome(session, proven.proven());
        }
        catch (DistillModelException e) {
            int attempt = attempts + 1;
            boolean giveUp = attempt >= maxAttempts;
            LocalDateTime next = giveUp ? null : at.plus(backoff.multipliedBy(1L << Math.min(attempt - 1, 10)));
            DistillAnswer usage = e.usage() != null ? e.usage() : answer;
            ledger.record(callOf(session, at, request, usage, e.reason().name().toLowerCase(Locale.ROOT)),
                    session.sessionId(), version,
                    new StoredAnswer(giveUp ? StoredAnswer.GAVE_UP : StoredAnswer.FAILED, null, null, attempt, next),
                    e.reason() + ": " + e.getMessage());
            count(giveUp ? "gave up" : "failed (" + e.reason().name().toLowerCase(Locale.ROOT) + ")");
            log.warn("distill: session {} not answered ({}), attempt {} of {}{}", session.sessionId(), e.reason(),
                    attempt, maxAttempts, giveUp ? ", given up" : ", asked again after " + next);
            return giveUp ? new DistillOutcome(session.sessionId(), version, List.of()) : null;
        }
    }

    private DistillOutcome outcome(DistillSession session, List<ProvenClaim> claims) {
        return new DistillOutcome(session.sessionId(), version, memories.of(session, claims),
                memories.paragraph(session, claims));
    }

    /**
     * The call as the ledger records it: the model's usage, else the request's worst
     * case.
     */
    private static DistillCall callOf(DistillSession session, LocalDateTime at, DistillRequest request,
            DistillAnswer usage, String outcome) {
        if (usage != null && usage.inputTokens() + usage.outputTokens() > 0) {
            return new DistillCall(session.sessionId(), at, usage.inputTokens(), usage.outputTokens(), false, outcome);
        }
        return new DistillCall(session.sessionId(), at, request.estimatedInputTokens(), request.maxOutputTokens(), true,
                outcome);
    }

    private LocalDateTime now() {
        return LocalDateTime.now(clock.withZone(ZoneOffset.UTC));
    }

    private void count(String what) {
        counts.merge(what, 1, Integer::sum);
    }

    /** Sessions handled by outcome, in this run. */
    public Map<String, Integer> counts() {
        return Map.copyOf(counts);
    }

    /** Claims rejected in this run, by reason. */
    public Map<String, Integer> rejected() {
        return Map.copyOf(rejected);
    }

}
