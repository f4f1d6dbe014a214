package dev.codememory.jobs.graduate;

import dev.codememory.config.graduate.AlignmentOutcome;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.ExtractedSession;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.jobs.runtime.DuckDbSessions;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.processors.align.EvidenceAligner;
import dev.codememory.processors.consolidate.NearDuplicateProcessor;
import dev.codememory.processors.extract.RuleBasedExtractor;
import dev.codememory.processors.graduate.CandidateExtractionProcessor;
import dev.codememory.processors.graduate.CandidateValidationProcessor;
import dev.codememory.processors.graduate.EvidenceAlignmentProcessor;
import dev.codememory.processors.graduate.TaskResolutionProcessor;
import dev.codememory.processors.task.BlockerResolver;
import dev.codememory.processors.task.TaskMatcher;
import dev.codememory.processors.task.TaskResolver;
import dev.codememory.processors.turns.SessionAssembler;
import dev.codememory.processors.validate.CandidateValidator;
import dev.codememory.readers.graduate.GraduationQueries;
import dev.codememory.readers.graduate.PendingItemReader;
import dev.codememory.readers.graduate.SessionSourceTexts;
import dev.codememory.writers.citation.DuckDbCitationWriter;
import dev.codememory.writers.graduate.DuckDbCandidateWriter;
import dev.codememory.writers.graduate.DuckDbEntryWriter;
import dev.codememory.writers.graduate.DuckDbEvidenceWriter;
import dev.codememory.writers.graduate.DuckDbGraphWriter;
import dev.codememory.writers.graduate.DuckDbSessionWriter;
import java.sql.SQLException;
import java.util.List;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code --job=graduate}: raw events climb to verified memories. Ingest (spool → events), then: assemble sessions
 * into turns and observations, extract candidates (L1), validate them (L2), align their evidence (L3), resolve
 * tasks, merge near-duplicates, give every verified memory its citation, then embed verified memories into the
 * vector store (L4). Each stage reads only the work it has not done, so a rerun or restart picks up exactly what
 * is left, and every writer is idempotent.
 */
@Configuration(proxyBeanMethods = false)
public class GraduationJobConfiguration {

    @Bean
    Job graduationJob(JobRepository jobRepository, JobRunListener jobRunListener, Step sealSpoolStep,
            Step ingestSpoolStep, Step deleteIngestedSpoolStep, Step assembleSessionsStep,
            Step extractCandidatesStep, Step validateCandidatesStep, Step alignEvidenceStep, Step resolveTasksStep,
            Step mergeDuplicatesStep, Step citeMemoriesStep, Step queueVectorsStep, Step embedMemoriesStep) {
        return new JobBuilder("graduationJob", jobRepository)
                .listener(jobRunListener)
                .start(sealSpoolStep)
                .next(ingestSpoolStep)
                .next(deleteIngestedSpoolStep)
                .next(assembleSessionsStep)
                .next(extractCandidatesStep)
                .next(validateCandidatesStep)
                .next(alignEvidenceStep)
                .next(resolveTasksStep)
                .next(mergeDuplicatesStep)
                .next(citeMemoriesStep)
                .next(queueVectorsStep)
                .next(embedMemoriesStep)
                .build();
    }

    @Bean
    Step assembleSessionsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<List<StoredEvent>> sessionEventsReader, DuckDbSessions sessions,
            JobRunListener jobRunListener) {
        return new StepBuilder("assembleSessionsStep", jobRepository)
                .<List<StoredEvent>, AssembledSession>chunk(50)
                .transactionManager(transactionManager)
                .reader(sessionEventsReader)
                .processor(new SessionAssembler(new TranscriptFiles())::assemble)
                .writer(new DuckDbSessionWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    @Bean
    Step extractCandidatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<AssembledSession> assembledSessionReader, DuckDbSessions sessions,
            JobRunListener jobRunListener) {
        return new StepBuilder("extractCandidatesStep", jobRepository)
                .<AssembledSession, ExtractedSession>chunk(50)
                .transactionManager(transactionManager)
                .reader(assembledSessionReader)
                .processor(new CandidateExtractionProcessor(new RuleBasedExtractor()))
                .writer(new DuckDbCandidateWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    @Bean
    Step validateCandidatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<Candidate> candidateReader, DuckDbSessions sessions, JobRunListener jobRunListener) {
        return new StepBuilder("validateCandidatesStep", jobRepository)
                .<Candidate, ValidationOutcome>chunk(500)
                .transactionManager(transactionManager)
                .reader(candidateReader)
                .processor(new CandidateValidationProcessor(new CandidateValidator()))
                .writer(new DuckDbEntryWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    @Bean
    Step alignEvidenceStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> entryReader, EvidenceAlignmentProcessor evidenceAlignmentProcessor,
            DuckDbSessions sessions, JobRunListener jobRunListener) {
        return new StepBuilder("alignEvidenceStep", jobRepository)
                .<EntryDraft, AlignmentOutcome>chunk(200)
                .transactionManager(transactionManager)
                .reader(entryReader)
                .processor(evidenceAlignmentProcessor)
                .writer(new DuckDbEvidenceWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    /** Step-scoped: its session text cache lives for one run only. */
    @Bean
    @StepScope
    EvidenceAlignmentProcessor evidenceAlignmentProcessor(DuckDbSessions sessions) {
        return new EvidenceAlignmentProcessor(new EvidenceAligner(), new SessionSourceTexts(sessions.connections()));
    }

    /** Chunk size 1: each task entry must see the tasks the previous one created or changed. */
    @Bean
    Step resolveTasksStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> taskEntryReader, TaskResolutionProcessor taskResolutionProcessor,
            DuckDbSessions sessions, JobRunListener jobRunListener) {
        return new StepBuilder("resolveTasksStep", jobRepository)
                .<EntryDraft, GraphUpdate>chunk(1)
                .transactionManager(transactionManager)
                .reader(taskEntryReader)
                .processor(taskResolutionProcessor)
                .writer(new DuckDbGraphWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    @Bean
    Step mergeDuplicatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> mergeEntryReader, DuckDbSessions sessions, JobRunListener jobRunListener) {
        return new StepBuilder("mergeDuplicatesStep", jobRepository)
                .<EntryDraft, GraphUpdate>chunk(1)
                .transactionManager(transactionManager)
                .reader(mergeEntryReader)
                .processor(new NearDuplicateProcessor(entry -> {
                    try (var c = sessions.connection()) {
                        return GraduationQueries.olderSimilar(c, entry);
                    } catch (SQLException e) {
                        throw new dev.codememory.config.db.DatabaseException(
                                "cannot look up similar entries: " + e.getMessage(), e);
                    }
                }))
                .writer(new DuckDbGraphWriter(sessions.connections()))
                .listener(jobRunListener)
                .build();
    }

    /**
     * One set-based statement per collision round, not a chunk per memory: a tasklet. Also the first step of
     * {@code reindexJob}, so a home graduated before citations existed gets them.
     */
    @Bean
    Step citeMemoriesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            DuckDbSessions sessions, JobRunListener jobRunListener) {
        return new StepBuilder("citeMemoriesStep", jobRepository)
                .tasklet((contribution, context) -> {
                    contribution.incrementWriteCount(new DuckDbCitationWriter(sessions.connections()).assignMissing());
                    return RepeatStatus.FINISHED;
                }, transactionManager)
                .listener(jobRunListener)
                .build();
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> mergeEntryReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.ENTRIES_TO_MERGE,
                (PendingItemReader.PageLoader<EntryDraft>) GraduationQueries::entries);
    }

    @Bean
    @StepScope
    TaskResolutionProcessor taskResolutionProcessor(DuckDbSessions sessions) {
        TaskMatcher matcher = new TaskMatcher();
        return new TaskResolutionProcessor(new TaskResolver(matcher, new BlockerResolver(matcher)), () -> {
            try (var c = sessions.connection()) {
                return GraduationQueries.taskEvents(c);
            } catch (SQLException e) {
                throw new dev.codememory.config.db.DatabaseException("cannot read task events: " + e.getMessage(), e);
            }
        });
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> taskEntryReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.TASK_ENTRIES_TO_RESOLVE,
                (PendingItemReader.PageLoader<EntryDraft>) GraduationQueries::entries);
    }

    @Bean
    @StepScope
    PendingItemReader<List<StoredEvent>> sessionEventsReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.SESSIONS_TO_ASSEMBLE,
                (PendingItemReader.Loader<List<StoredEvent>>) GraduationQueries::sessionEvents);
    }

    @Bean
    @StepScope
    PendingItemReader<AssembledSession> assembledSessionReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.SESSIONS_TO_EXTRACT,
                (PendingItemReader.Loader<AssembledSession>) GraduationQueries::assembledSession);
    }

    @Bean
    @StepScope
    PendingItemReader<Candidate> candidateReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.CANDIDATES_TO_VALIDATE,
                (PendingItemReader.PageLoader<Candidate>) GraduationQueries::candidates);
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> entryReader(DuckDbSessions sessions) {
        return new PendingItemReader<>(sessions.connections(), GraduationQueries.ENTRIES_TO_ALIGN,
                (PendingItemReader.PageLoader<EntryDraft>) GraduationQueries::entries);
    }
}
