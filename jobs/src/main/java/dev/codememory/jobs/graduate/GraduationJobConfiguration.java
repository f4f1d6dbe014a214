package dev.codememory.jobs.graduate;

import dev.codememory.config.facts.ProjectActivity;
import dev.codememory.config.graduate.AlignmentOutcome;
import dev.codememory.config.graduate.AssembledSession;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.ExtractedSession;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.SimilarEntries;
import dev.codememory.config.graduate.StoredEvent;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.summary.SessionMaterial;
import dev.codememory.config.summary.SummaryOutcome;
import dev.codememory.config.topic.TopicMaterial;
import dev.codememory.config.topic.TopicOutcome;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.jobs.ingest.IngestJobConfiguration;
import dev.codememory.jobs.runtime.ActionSteps;
import dev.codememory.jobs.runtime.ChunkSteps;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunListener;
import dev.codememory.jobs.vector.EmbedStepsConfiguration;
import dev.codememory.processors.align.EvidenceAligner;
import dev.codememory.processors.align.EvidenceAlignmentProcessor;
import dev.codememory.processors.consolidate.NearDuplicateProcessor;
import dev.codememory.processors.extract.CandidateExtractionProcessor;
import dev.codememory.processors.extract.RuleBasedExtractor;
import dev.codememory.processors.facts.ProjectFacts;
import dev.codememory.processors.summary.SessionSummaryComposer;
import dev.codememory.processors.task.BlockerResolver;
import dev.codememory.processors.task.TaskMatcher;
import dev.codememory.processors.task.TaskResolutionProcessor;
import dev.codememory.processors.task.TaskResolver;
import dev.codememory.processors.topic.TopicConsolidator;
import dev.codememory.processors.turns.SessionAssembler;
import dev.codememory.processors.validate.CandidateValidationProcessor;
import dev.codememory.processors.validate.CandidateValidator;
import dev.codememory.readers.align.AlignmentQueries;
import dev.codememory.readers.align.SessionSourceTexts;
import dev.codememory.readers.consolidate.NearDuplicateQueries;
import dev.codememory.readers.extract.AssembledSessionQueries;
import dev.codememory.readers.facts.ProjectFactsQueries;
import dev.codememory.readers.graduation.EntryQueries;
import dev.codememory.readers.pending.PendingItemReader;
import dev.codememory.readers.summary.SessionSummaryQueries;
import dev.codememory.readers.task.TaskQueries;
import dev.codememory.readers.topic.TopicQueries;
import dev.codememory.readers.turns.SessionEventQueries;
import dev.codememory.readers.validate.CandidateQueries;
import dev.codememory.writers.align.DuckDbEvidenceWriter;
import dev.codememory.writers.citation.DuckDbCitationWriter;
import dev.codememory.writers.continuity.DuckDbContinuityWriter;
import dev.codememory.writers.extract.DuckDbCandidateWriter;
import dev.codememory.writers.facts.DuckDbProjectFactsWriter;
import dev.codememory.writers.graduation.DuckDbGraphWriter;
import dev.codememory.writers.project.DuckDbWorktreeWriter;
import dev.codememory.writers.rules.DuckDbDerivationWriter;
import dev.codememory.writers.summary.DuckDbSummaryWriter;
import dev.codememory.writers.topic.DuckDbTopicWriter;
import dev.codememory.writers.turns.DuckDbSessionWriter;
import dev.codememory.writers.validate.DuckDbEntryWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.FlowBuilder;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.flow.Flow;
import org.springframework.batch.core.job.flow.support.SimpleFlow;
import org.springframework.batch.core.listener.ChunkListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.AbstractStep;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * {@code --job=graduate}: raw events climb to verified memories. Ingest (spool → events),
 * then: assemble sessions into turns and observations, extract candidates (L1), validate
 * them (L2), align their evidence (L3), resolve tasks, merge near-duplicates, give every
 * verified memory its citation, summarise finished sessions from their cited memories,
 * group the work of several sessions into topics (and cite summaries and topics), then
 * embed verified memories into the vector store (L4). Each stage reads only the work it
 * has not done, so a rerun or restart picks up exactly what is left, and every writer is
 * idempotent.
 */
@Configuration(proxyBeanMethods = false)
public class GraduationJobConfiguration {

    private static final Logger log = LoggerFactory.getLogger(GraduationJobConfiguration.class);

    /**
     * The version of the rules that derive graduated rows from events: how sessions are
     * assembled, what the extractor emits, the canonical keys, how tasks fold and how
     * summaries are written. Change it with any of them, and the next run rebuilds every
     * derived row under the new rules ({@link DuckDbDerivationWriter}).
     */
    public static final String RULES_VERSION = "graduation-3 (" + RuleBasedExtractor.NAME + ")";

    /**
     * Sessions per chunk of assembly and extraction: a reader page (500). Their writers'
     * statements read the stored turns, observations and candidates once per chunk, a
     * cost that grows with the history (at 200,000 generated events, chunks of 500
     * instead of 50: assembly 12.0 → 10.1 s, extraction 22.1 → 19.5 s).
     */
    static final int SESSIONS_PER_CHUNK = 500;

    /**
     * Candidates per chunk of validation, read as one page: a chunk's writer statements
     * cost about the same for 500 candidates as for 5,000 (each streams the stored
     * entries and edges past the chunk's keys), and so does loading a page (at a million
     * events 1,888 pages of 500 took 21 s).
     */
    static final int CANDIDATES_PER_CHUNK = 5000;

    /**
     * Projects per chunk of the project-facts step (a project's activity is one item).
     */
    static final int PROJECTS_PER_CHUNK = 10;

    /**
     * Entries per chunk of alignment and of the task stage, read as one page: each
     * chunk's writer statements read stored tables that grow with the history (at a
     * million events a semi-join against the million edges costs ~30 ms), so fewer chunks
     * divide that time.
     */
    static final int ENTRIES_PER_CHUNK = 5000;

    /**
     * The start of the newest-first pass, for the step-scoped readers: null outside it
     * ({@link NewestFirst}).
     */
    private static final String SINCE = "#{jobExecutionContext['" + NewestFirst.SINCE + "']}";

    /**
     * The table of contents: the job's steps in the order they run. The ingest flow
     * (seal, ingest and delete the spool) is defined in {@link IngestJobConfiguration},
     * the embed flow (queue and embed vectors) in {@link EmbedStepsConfiguration}; every
     * other step is defined below, in this order, each followed by the step-scoped reader
     * or processor it uses. The comment after a step names the package word of its stage:
     * the step's reader, processor and writer sit in the package of that name in
     * {@code readers}, {@code processors} and {@code writers} (whichever of the three the
     * step has).
     *
     * <p>
     * After ingest, {@link NewestFirst} decides whether a backlog of older sessions
     * waits: then the stages run twice, first on the newest two weeks (up to their
     * vectors), then on everything else; the stage steps may therefore start again in an
     * execution that completed them.
     */
    @Bean
    Job graduationJob(JobRepository jobRepository, JobRunListener jobRunListener, Step sealSpoolStep,
            Step ingestSpoolStep, Step deleteIngestedSpoolStep, Step joinWorktreesStep, Step applyRulesStep,
            NewestFirst newestFirst, Step assembleSessionsStep, Step extractCandidatesStep,
            Step extractProjectFactsStep, Step validateCandidatesStep, Step alignEvidenceStep, Step resolveTasksStep,
            Step mergeDuplicatesStep, Step citeMemoriesStep, Step summarizeSessionsStep, Step distillSessionsStep,
            Step consolidateTopicsStep, Step citeSummariesStep, Step scoreContinuityStep, Step queueVectorsStep,
            Step embedMemoriesStep, Step olderSessionsNextStep) {
        Flow newest = flow("newestFirstFlow", assembleSessionsStep, extractCandidatesStep, validateCandidatesStep,
                alignEvidenceStep, resolveTasksStep, mergeDuplicatesStep, citeMemoriesStep, summarizeSessionsStep,
                distillSessionsStep, consolidateTopicsStep, citeSummariesStep, scoreContinuityStep, queueVectorsStep,
                embedMemoriesStep, olderSessionsNextStep);
        Flow stages = flow("graduationFlow", //
                assembleSessionsStep, // turns
                extractCandidatesStep, // extract
                extractProjectFactsStep, // facts
                validateCandidatesStep, // validate
                alignEvidenceStep, // align
                resolveTasksStep, // task
                mergeDuplicatesStep, // consolidate
                citeMemoriesStep, // citation
                summarizeSessionsStep, // summary
                distillSessionsStep, // distill (opt-in): DistillStepsConfiguration
                consolidateTopicsStep, // topic
                citeSummariesStep, // citation
                scoreContinuityStep, // continuity
                queueVectorsStep, // vector; embed flow: EmbedStepsConfiguration
                embedMemoriesStep); // vector; embed flow: EmbedStepsConfiguration
        return new JobBuilder("graduationJob", jobRepository).listener(jobRunListener)
            .start(sealSpoolStep) // ingest flow: IngestJobConfiguration
            .next(ingestSpoolStep) // ingest flow: IngestJobConfiguration
            .next(deleteIngestedSpoolStep) // ingest flow: IngestJobConfiguration
            .next(joinWorktreesStep) // project
            .next(applyRulesStep) // rules
            .next(newestFirst)
            .on(NewestFirst.RECENT.getName())
            .to(newest)
            .next(stages)
            .from(newestFirst)
            .on("*")
            .to(stages)
            .end()
            .build();
    }

    /** Steps in order, each allowed to start again in an execution that completed it. */
    private static Flow flow(String name, Step... steps) {
        FlowBuilder<SimpleFlow> flow = new FlowBuilder<>(name);
        for (Step step : steps) {
            if (step instanceof AbstractStep again) {
                again.setAllowStartIfComplete(true);
            }
            flow.next(step);
        }
        return flow.build();
    }

    @Bean
    NewestFirst newestFirst(JobDatabase database) {
        return new NewestFirst(database);
    }

    /** The end of the newest-first pass: the readers read every pending item again. */
    @Bean
    Step olderSessionsNextStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobRunListener jobRunListener) {
        return new StepBuilder("olderSessionsNextStep", jobRepository).tasklet((contribution, context) -> {
            context.getStepContext()
                .getStepExecution()
                .getJobExecution()
                .getExecutionContext()
                .remove(NewestFirst.SINCE);
            return RepeatStatus.FINISHED;
        }, transactionManager).listener(jobRunListener).build();
    }

    /**
     * A home made before worktrees were joined to their repository's project: moves their
     * events there, and has the rules step rebuild what was derived from them.
     */
    @Bean
    Step joinWorktreesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobDatabase database, JobRunListener jobRunListener, ProjectResolver projectResolver) {
        return ActionSteps.step("joinWorktreesStep", jobRepository, transactionManager, jobRunListener, () -> {
            Map<String, String> moved = new DuckDbWorktreeWriter(database.connections()).joinWorktrees(projectResolver);
            moved.forEach((from, to) -> log.info("worktree {} joined its repository's project {}", from, to));
            return moved.size();
        });
    }

    /**
     * Rows derived under other rules than {@link #RULES_VERSION} are cleared, so the
     * stages that follow rebuild them from the events: one action, a tasklet. Its write
     * count is the number of rows cleared.
     */
    @Bean
    Step applyRulesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobDatabase database, JobRunListener jobRunListener) {
        return ActionSteps.step("applyRulesStep", jobRepository, transactionManager, jobRunListener,
                () -> new DuckDbDerivationWriter(database.connections()).resetUnless(RULES_VERSION));
    }

    @Bean
    Step assembleSessionsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<List<StoredEvent>> sessionEventsReader, JobDatabase database,
            JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener)
            .<List<StoredEvent>, AssembledSession>step("assembleSessionsStep", SESSIONS_PER_CHUNK, sessionEventsReader,
                    new SessionAssembler(new TranscriptFiles())::assemble,
                    new DuckDbSessionWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<List<StoredEvent>> sessionEventsReader(JobDatabase database, @Value(SINCE) String since) {
        return PendingItemReader
            .paged(database.connections(), SessionEventQueries.SESSIONS_TO_ASSEMBLE, SessionEventQueries::sessionEvents)
            .since(NewestFirst.since(since));
    }

    @Bean
    Step extractCandidatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<AssembledSession> assembledSessionReader, JobDatabase database,
            JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener)
            .<AssembledSession, ExtractedSession>step("extractCandidatesStep", SESSIONS_PER_CHUNK,
                    assembledSessionReader, new CandidateExtractionProcessor(new RuleBasedExtractor()),
                    new DuckDbCandidateWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<AssembledSession> assembledSessionReader(JobDatabase database, @Value(SINCE) String since) {
        return PendingItemReader
            .paged(database.connections(), AssembledSessionQueries.SESSIONS_TO_EXTRACT,
                    AssembledSessionQueries::assembledSessions)
            .since(NewestFirst.since(since));
    }

    /**
     * Facts read off how a project's sessions behaved (the commands that build, test and
     * run it, the files that matter most), per project whose activity changed: candidates
     * for validation like any other.
     */
    @Bean
    Step extractProjectFactsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<ProjectActivity> projectActivityReader, JobDatabase database,
            JobRunListener jobRunListener) {
        ProjectFacts facts = new ProjectFacts();
        return new ChunkSteps(jobRepository, transactionManager,
                jobRunListener).<ProjectActivity, ProjectActivity.Outcome>step("extractProjectFactsStep",
                        PROJECTS_PER_CHUNK, projectActivityReader,
                        a -> new ProjectActivity.Outcome(a.project(), a.extent(), facts.facts(a)),
                        new DuckDbProjectFactsWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<ProjectActivity> projectActivityReader(JobDatabase database) {
        return PendingItemReader.keyed(database.connections(), ProjectFactsQueries.PROJECTS_TO_FACT,
                ProjectFactsQueries::activity);
    }

    /**
     * Chunks of {@link #CANDIDATES_PER_CHUNK}: fewer, larger chunks divide the stage's
     * time (at 200,000 events, 378 chunks of 500 took 117 ms each).
     */
    @Bean
    Step validateCandidatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<Candidate> candidateReader, JobDatabase database, JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<Candidate, ValidationOutcome>step(
                "validateCandidatesStep", CANDIDATES_PER_CHUNK, candidateReader,
                new CandidateValidationProcessor(new CandidateValidator()),
                new DuckDbEntryWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<Candidate> candidateReader(JobDatabase database, @Value(SINCE) String since) {
        return new PendingItemReader<>(database.connections(), CandidateQueries.CANDIDATES_TO_VALIDATE,
                CANDIDATES_PER_CHUNK, CandidateQueries::candidates)
            .since(NewestFirst.since(since));
    }

    /**
     * Each chunk's quoted texts are read before it is processed, in one statement per
     * thousand events ({@link SessionSourceTexts#prefetch}).
     */
    @Bean
    Step alignEvidenceStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> entryReader, EvidenceAlignmentProcessor evidenceAlignmentProcessor,
            SessionSourceTexts alignmentSources, JobDatabase database, JobRunListener jobRunListener) {
        ChunkListener<EntryDraft, AlignmentOutcome> prefetchQuotedTexts = new ChunkListener<>() {
            @Override
            public void beforeChunk(Chunk<EntryDraft> chunk) {
                List<String> events = new ArrayList<>();
                chunk.forEach(entry -> entry.quotes().forEach(quote -> events.add(quote.eventId())));
                alignmentSources.prefetch(events);
            }
        };
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<EntryDraft, AlignmentOutcome>step(
                "alignEvidenceStep", ENTRIES_PER_CHUNK, entryReader, evidenceAlignmentProcessor,
                new DuckDbEvidenceWriter(database.connections()), prefetchQuotedTexts);
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> entryReader(JobDatabase database, @Value(SINCE) String since) {
        return new PendingItemReader<>(database.connections(), AlignmentQueries.ENTRIES_TO_ALIGN, ENTRIES_PER_CHUNK,
                EntryQueries::entries)
            .since(NewestFirst.since(since));
    }

    @Bean
    @StepScope
    EvidenceAlignmentProcessor evidenceAlignmentProcessor(SessionSourceTexts alignmentSources) {
        return new EvidenceAlignmentProcessor(new EvidenceAligner(), alignmentSources);
    }

    /** Step-scoped: the texts it holds live for one run only. */
    @Bean
    @StepScope
    SessionSourceTexts alignmentSources(JobDatabase database) {
        return new SessionSourceTexts(database.connections());
    }

    /**
     * A chunk is a reader page: each task entry sees the tasks the entries before it
     * created or changed, in the chunk too, as the processor holds every task's state in
     * memory and advances it with each event it emits (step-scoped: a restart loads it
     * again from what was committed).
     */
    @Bean
    Step resolveTasksStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> taskEntryReader, TaskResolutionProcessor taskResolutionProcessor,
            JobDatabase database, JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<EntryDraft, GraphUpdate>step(
                "resolveTasksStep", ENTRIES_PER_CHUNK, taskEntryReader, taskResolutionProcessor,
                new DuckDbGraphWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> taskEntryReader(JobDatabase database, @Value(SINCE) String since) {
        return new PendingItemReader<>(database.connections(), TaskQueries.TASK_ENTRIES_TO_RESOLVE, ENTRIES_PER_CHUNK,
                EntryQueries::entries)
            .since(NewestFirst.since(since));
    }

    @Bean
    @StepScope
    TaskResolutionProcessor taskResolutionProcessor(JobDatabase database) {
        TaskMatcher matcher = new TaskMatcher();
        return new TaskResolutionProcessor(new TaskResolver(matcher, new BlockerResolver(matcher)),
                () -> database.read("read task events", TaskQueries::taskEvents),
                () -> database.read("read task entries",
                        c -> TaskQueries.taskEvidence(c)
                            .stream()
                            .map(r -> new TaskResolutionProcessor.TaskStatement(r.taskId(), r.entryId(), r.ts()))
                            .toList()));
    }

    /**
     * A chunk is a reader page: an entry sees as superseded what the entries before it in
     * the chunk superseded, as the processor remembers it.
     */
    @Bean
    Step mergeDuplicatesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<EntryDraft> mergeEntryReader, NearDuplicateProcessor nearDuplicateProcessor,
            JobDatabase database, JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<EntryDraft, GraphUpdate>step(
                "mergeDuplicatesStep", PendingItemReader.PAGE, mergeEntryReader, nearDuplicateProcessor,
                new DuckDbGraphWriter(database.connections()));
    }

    /** Step-scoped: what it superseded lives for one run of the step. */
    @Bean
    @StepScope
    NearDuplicateProcessor nearDuplicateProcessor(JobDatabase database) {
        return new NearDuplicateProcessor(new StoredSimilarEntries(database));
    }

    @Bean
    @StepScope
    PendingItemReader<EntryDraft> mergeEntryReader(JobDatabase database, @Value(SINCE) String since) {
        return PendingItemReader
            .paged(database.connections(), NearDuplicateQueries.ENTRIES_TO_MERGE, EntryQueries::entries)
            .since(NewestFirst.since(since));
    }

    /**
     * One set-based statement per collision round, not a chunk per memory: a tasklet.
     * Also the first step of {@code reindexJob}, so a home graduated before citations
     * existed gets them.
     */
    @Bean
    Step citeMemoriesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobDatabase database, JobRunListener jobRunListener) {
        return citeStep("citeMemoriesStep", jobRepository, transactionManager, database, jobRunListener);
    }

    /** A step that gives every verified memory without a citation its citation. */
    private static Step citeStep(String name, JobRepository jobRepository,
            PlatformTransactionManager transactionManager, JobDatabase database, JobRunListener jobRunListener) {
        return ActionSteps.step(name, jobRepository, transactionManager, jobRunListener,
                () -> new DuckDbCitationWriter(database.connections()).assignMissing());
    }

    /**
     * After citation, because a summary's lines cite the memories they rest on: each
     * finished session's summary is composed from its verified memories and stored
     * verified, with their spans. A chunk is a page of the reader (500 sessions): the
     * writer's statements each read the stored entries, spans and edges once per chunk.
     */
    @Bean
    Step summarizeSessionsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<SessionMaterial> sessionMaterialReader, JobDatabase database,
            JobRunListener jobRunListener) {
        SessionSummaryComposer composer = new SessionSummaryComposer();
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<SessionMaterial, SummaryOutcome>step(
                "summarizeSessionsStep", SESSIONS_PER_CHUNK, sessionMaterialReader,
                m -> new SummaryOutcome(m.sessionId(), m.lastSeq(), composer.compose(m)),
                new DuckDbSummaryWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<SessionMaterial> sessionMaterialReader(JobDatabase database, @Value(SINCE) String since) {
        return PendingItemReader
            .paged(database.connections(), SessionSummaryQueries.SESSIONS_TO_SUMMARIZE, SessionSummaryQueries::material)
            .since(NewestFirst.since(since));
    }

    /**
     * After the summaries, a project at a time: the project's verified decisions, work,
     * insights and tasks are grouped into topics, pieces of work that span sessions, each
     * written as a memory whose lines cite the memories it rests on; a topic that changed
     * replaces the earlier one. Only projects whose memories changed since are read.
     */
    @Bean
    Step consolidateTopicsStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            PendingItemReader<TopicMaterial> topicMaterialReader, JobDatabase database, VectorStore vectorStore,
            JobRunListener jobRunListener) {
        return new ChunkSteps(jobRepository, transactionManager, jobRunListener).<TopicMaterial, TopicOutcome>step(
                "consolidateTopicsStep", PROJECTS_PER_CHUNK, topicMaterialReader,
                TopicConsolidator.withVectorsFrom(vectorStore)::consolidate,
                new DuckDbTopicWriter(database.connections()));
    }

    @Bean
    @StepScope
    PendingItemReader<TopicMaterial> topicMaterialReader(JobDatabase database) {
        return PendingItemReader.keyed(database.connections(), TopicQueries.PROJECTS_TO_CONSOLIDATE,
                TopicQueries::material);
    }

    /**
     * The summaries and topics just written get their citations, as every other memory
     * did in {@code citeMemoriesStep}.
     */
    @Bean
    Step citeSummariesStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobDatabase database, JobRunListener jobRunListener) {
        return citeStep("citeSummariesStep", jobRepository, transactionManager, database, jobRunListener);
    }

    /**
     * After the topics: how much of the previous session of its project each session went
     * on with (files, tasks, topics), recorded for {@code stats}, {@code endless status}
     * and the size of the working set shown at the next start in endless mode. One
     * action; its write count is the number of sessions scored.
     */
    @Bean
    Step scoreContinuityStep(JobRepository jobRepository, PlatformTransactionManager transactionManager,
            JobDatabase database, JobRunListener jobRunListener) {
        return ActionSteps.step("scoreContinuityStep", jobRepository, transactionManager, jobRunListener,
                () -> new DuckDbContinuityWriter(database.connections()).scoreMissing());
    }

}
