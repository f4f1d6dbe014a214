package dev.codememory.jobs.distill;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.distill.DistillModel;
import dev.codememory.config.distill.DistillOutcome;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.jobs.runtime.ChunkSteps;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.processors.align.EvidenceAligner;
import dev.codememory.processors.distill.ClaimProof;
import dev.codememory.processors.distill.DistillPrompt;
import dev.codememory.processors.distill.DistilledMemories;
import dev.codememory.processors.distill.SessionDistiller;
import dev.codememory.readers.distill.DistillQueries;
import dev.codememory.readers.pending.PendingItemReader;
import dev.codememory.writers.distill.DuckDbDistillLedger;
import dev.codememory.writers.distill.DuckDbDistilledWriter;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code distillSessionsStep}, the opt-in graduation step after the session summaries
 * ({@code code-memory.distill.enabled}, off by default): each finished session is asked
 * about once, of the developer's own model, and only the claims proven in its events are
 * stored, as memories of their kinds that the citation and vector steps after it treat
 * like any other. Off, its reader reads nothing.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DistillProperties.class)
public class DistillStepsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DistillStepsConfiguration.class);

    /**
     * The version of the distiller's question and proof: a session is asked once per
     * version. Change it only when a new question is worth paying for every session
     * again.
     */
    public static final String VERSION = "distill-1";

    /**
     * Sessions per chunk: the answers are recorded as they come, before the chunk, so a
     * chunk lost to a crash costs no request, only its proof again.
     */
    static final int SESSIONS_PER_CHUNK = 10;

    @Bean
    Step distillSessionsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<DistillSession> distillSessionReader, SessionDistiller sessionDistiller,
            JobDatabase database, JobRunListener jobRunListener) {
        StepExecutionListener outcome = new StepExecutionListener() {
            @Override
            public ExitStatus afterStep(StepExecution stepExecution) {
                if (!sessionDistiller.counts().isEmpty()) {
                    log.info("distill: sessions {}, claims rejected by reason {}", sessionDistiller.counts(),
                            sessionDistiller.rejected());
                }
                return null;
            }
        };
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<DistillSession, DistillOutcome>step(
                "distillSessionsStep", SESSIONS_PER_CHUNK, distillSessionReader, sessionDistiller,
                new DuckDbDistilledWriter(database.connections()), outcome);
    }

    @Bean
    @StepScope
    PendingItemReader<DistillSession> distillSessionReader(JobDatabase database, DistillProperties settings) {
        String pending = settings.enabled() ? DistillQueries.sessionsToDistill(VERSION)
                : "SELECT NULL::VARCHAR WHERE false";
        return PendingItemReader.keyed(database.connections(), pending, DistillQueries::session);
    }

    /** Step-scoped: its counts are one run's. */
    @Bean
    @StepScope
    SessionDistiller sessionDistiller(JobDatabase database, DistillProperties settings, DistillModel distillModel) {
        return distiller(settings, distillModel, new DuckDbDistillLedger(database.connections()), Clock.systemUTC());
    }

    /** The distiller these settings make, asking {@code model}. */
    static SessionDistiller distiller(DistillProperties settings, DistillModel model, DuckDbDistillLedger ledger,
            Clock clock) {
        EvidenceAligner aligner = new EvidenceAligner();
        return new SessionDistiller(model, ledger, prompt(settings), new ClaimProof(aligner, Redactor.defaults()),
                new DistilledMemories(aligner), VERSION, settings.dailyTokenBudget(), settings.retryAfter(),
                settings.maxAttempts(), clock);
    }

    /** The request these settings make for a session. */
    static DistillPrompt prompt(DistillProperties settings) {
        return new DistillPrompt(Redactor.defaults(), settings.sessionInputTokens(), settings.minSessionTokens(),
                settings.maxOutputTokens());
    }

    /** The model the settings name; asked only when the step is on. */
    @Bean
    DistillModel distillModel(DistillProperties settings) {
        return settings.client().equals(DistillProperties.MESSAGES_API)
                ? new MessagesApiModel(settings.baseUrl(), settings.apiKey(), settings.model(), settings.timeout())
                : new ClaudeCliModel(settings.claudeCommand(), settings.model(), settings.timeout());
    }

}
