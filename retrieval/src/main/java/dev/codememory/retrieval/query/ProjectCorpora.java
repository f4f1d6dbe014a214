package dev.codememory.retrieval.query;

import dev.codememory.config.db.DuckDb;
import dev.codememory.config.graduate.Citation;
import dev.codememory.config.team.TeamMemory;
import dev.codememory.config.time.UtcMicros;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.query.QueryService.Refresh;
import dev.codememory.retrieval.ranking.HybridRanker;
import dev.codememory.retrieval.ranking.MemoryDoc;
import dev.codememory.retrieval.ranking.Questions;
import dev.codememory.retrieval.ranking.RankingSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The projects' memories as {@link QueryService} searches them, one {@link Corpus} per
 * project (and one for all projects), loaded by the first read of the project and kept
 * for the life of the process. Reads run under a read lock; {@link #refresh} and
 * {@link #refreshTeam} change a corpus in place under the write lock, after reading the
 * database and the team store without it, so searches go on meanwhile.
 *
 * <p>
 * With a team store, a project's corpus also holds what the rest of the team published
 * for it (never the all-projects one); a local memory wins over a team memory of the same
 * id.
 */
final class ProjectCorpora {

    /** Logs as the query service, whose work this is. */
    private static final Logger log = LoggerFactory.getLogger(QueryService.class);

    private static final String ALL = "\u0000all";

    private final DuckDb.Session session;

    private final RankingSettings settings;

    private final TeamReads team;

    private final Map<String, Corpus> corpora = new ConcurrentHashMap<>();

    /**
     * Reads of the corpora hold the read lock; {@link #refresh} changes them under the
     * write lock.
     */
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    /**
     * A project's memories as the query path reads them, in memory: the ranker's indexes,
     * each memory as a result shows it, and the texts of their source events. Sources,
     * texts and citations never change once a memory is verified, so {@link #refresh}
     * only adds and removes.
     */
    record Corpus(HybridRanker ranker, Map<String, Held> memories, Map<String, String> texts,
            Map<String, SpokenTurn> answeredTurns) {
    }

    /**
     * What a result shows of a memory, held for every memory of the project: its summary
     * instead of its title and body (those are indexed, then not needed again), its
     * stored citation (null: none yet) and its source events.
     */
    record Held(String memoryId, String kind, String summary, long createdMicros, String sessionId, String citation,
            List<MemorySource> sources, String author) {

        static Held of(StoredMemory m, Loaded loaded) {
            return new Held(m.memoryId(), m.kind(), summary(m.title(), m.body()), UtcMicros.of(m.createdTs()),
                    m.sessionId(), loaded.citations().get(m.memoryId()),
                    List.copyOf(loaded.sources().sources().getOrDefault(m.memoryId(), List.of())), null);
        }

        /**
         * A team memory: no local sources or session; its citation is its publisher's.
         */
        static Held of(TeamMemory m) {
            return new Held(m.memoryId(), m.kind(), summary(m.title(), m.body()), UtcMicros.of(m.createdTs()), "",
                    Citation.PREFIX + m.citation(), List.of(), m.author());
        }

        /**
         * The title, or the body when the title is blank, on one line, at most 200
         * characters (the last one an ellipsis when cut).
         */
        static String summary(String title, String body) {
            String s = title.isBlank() ? body : title;
            s = s.replaceAll("\\s+", " ").strip();
            return s.length() > 200 ? s.substring(0, 199) + "…" : s;
        }
    }

    /** What {@link #load} reads for a project. */
    private record Loaded(List<StoredMemory> stored, MemoryQueries.ProjectSources sources,
            Map<String, String> citations, Map<String, String> previousSaid) {

        /**
         * By prompt or reply: the prompt or reply before it in its session; read only
         * with {@link RankingSettings#turnContext} on.
         */
        private static Map<String, String> previousSaid(Map<String, MemorySource> nextSaid) {
            Map<String, String> previous = new HashMap<>();
            nextSaid.forEach((event, next) -> previous.put(next.eventId(), event));
            return previous;
        }
    }

    /**
     * @param team the team store's reads, whose memories each project's corpus holds too
     */
    ProjectCorpora(DuckDb.Session session, RankingSettings settings, TeamReads team) {
        this.session = session;
        this.settings = settings;
        this.team = team;
    }

    /**
     * What the reader makes of the project's corpus (null project: all projects), loaded
     * first if it is not yet; the corpus does not change while the reader runs.
     */
    <T> T read(String project, Function<Corpus, T> reader) {
        Corpus corpus = corpus(project);
        lock.readLock().lock();
        try {
            return reader.apply(corpus);
        }
        finally {
            lock.readLock().unlock();
        }
    }

    /** Loads the project's corpus now if it is not yet; the number of its memories. */
    int prepare(String project) {
        return corpus(project).memories().size();
    }

    /** The projects whose corpus is loaded (null: the all-projects one). */
    Set<String> projects() {
        Set<String> out = new HashSet<>();
        corpora.keySet().forEach(k -> out.add(ALL.equals(k) ? null : k));
        return out;
    }

    /**
     * Brings a loaded corpus up to date with the database in place (BM25 and the ranker
     * are incremental): new verified, active memories are added, those no longer active
     * removed. The reads happen before the write lock, so searches go on meanwhile. A
     * project not loaded yet is left to its first read.
     */
    Refresh refresh(String project) {
        Corpus corpus = corpora.get(project == null ? ALL : project);
        if (corpus == null) {
            return new Refresh(project, 0, 0, 0);
        }
        Future<List<TeamMemory>> teamLoad = team.memories(project);
        Loaded loaded = load(project);
        List<TeamMemory> teamNow = team.await(teamLoad);
        Map<String, StoredMemory> now = new LinkedHashMap<>();
        loaded.stored().forEach(m -> now.put(m.memoryId(), m));
        Map<String, TeamMemory> teamById = new LinkedHashMap<>();
        if (teamNow != null) {
            teamNow.stream().filter(m -> !now.containsKey(m.memoryId())).forEach(m -> teamById.put(m.memoryId(), m));
        }
        List<MemoryDoc> added = new ArrayList<>();
        for (StoredMemory m : loaded.stored()) {
            if (!corpus.memories().containsKey(m.memoryId())) {
                added.add(doc(m, loaded, loaded.sources().turnTexts()));
            }
        }
        List<TeamMemory> teamAdded = teamById.values()
            .stream()
            .filter(m -> !corpus.memories().containsKey(m.memoryId()))
            .toList();
        // a team store that did not answer leaves the team memories as they were
        List<String> removed = corpus.memories()
            .entrySet()
            .stream()
            .filter(e -> e.getValue().author() == null ? !now.containsKey(e.getKey())
                    : teamNow != null && !teamById.containsKey(e.getKey()))
            .map(Map.Entry::getKey)
            .toList();
        lock.writeLock().lock();
        try {
            corpus.ranker().remove(removed);
            corpus.ranker().add(added);
            corpus.ranker().add(teamAdded.stream().map(ProjectCorpora::doc).toList());
            for (String id : removed) {
                corpus.memories().remove(id);
            }
            teamAdded.forEach(m -> corpus.memories().put(m.memoryId(), Held.of(m)));
            for (MemoryDoc d : added) {
                Held held = Held.of(now.get(d.memoryId()), loaded);
                corpus.memories().put(held.memoryId(), held);
                held.sources().forEach(src -> {
                    String text = loaded.sources().eventTexts().get(src.eventId());
                    if (text != null) {
                        corpus.texts().put(src.eventId(), text);
                    }
                });
                answers(corpus, loaded, held.sources().stream().map(MemorySource::eventId).toList());
            }
        }
        finally {
            lock.writeLock().unlock();
        }
        return new Refresh(project, added.size() + teamAdded.size(), removed.size(), corpus.memories().size());
    }

    /**
     * Brings the team memories of a loaded project's corpus up to date with the team
     * store, leaving the local ones as they are. A team store that does not answer
     * changes nothing.
     */
    Refresh refreshTeam(String project) {
        Corpus corpus = project == null ? null : corpora.get(project);
        List<TeamMemory> now = corpus == null ? null : team.await(team.memories(project));
        if (now == null) {
            return new Refresh(project, 0, 0, corpus == null ? 0 : corpus.memories().size());
        }
        Map<String, TeamMemory> byId = new LinkedHashMap<>();
        now.forEach(m -> byId.put(m.memoryId(), m));
        List<TeamMemory> added = now.stream().filter(m -> !corpus.memories().containsKey(m.memoryId())).toList();
        List<String> removed = corpus.memories()
            .entrySet()
            .stream()
            .filter(e -> e.getValue().author() != null && !byId.containsKey(e.getKey()))
            .map(Map.Entry::getKey)
            .toList();
        lock.writeLock().lock();
        try {
            corpus.ranker().remove(removed);
            corpus.ranker().add(added.stream().map(ProjectCorpora::doc).toList());
            removed.forEach(corpus.memories()::remove);
            added.forEach(m -> corpus.memories().put(m.memoryId(), Held.of(m)));
        }
        finally {
            lock.writeLock().unlock();
        }
        return new Refresh(project, added.size(), removed.size(), corpus.memories().size());
    }

    private Corpus corpus(String project) {
        return corpora.computeIfAbsent(project == null ? ALL : project, key -> {
            long start = System.nanoTime();
            Future<List<TeamMemory>> teamLoad = team.memories(project);
            Loaded loaded = load(project);
            Map<String, Held> byId = new ConcurrentHashMap<>();
            List<MemoryDoc> docs = new ArrayList<>(loaded.stored().size());
            for (StoredMemory m : loaded.stored()) {
                byId.put(m.memoryId(), Held.of(m, loaded));
                docs.add(doc(m, loaded, settings.turnLexical() > 0 ? loaded.sources().turnTexts() : Map.of()));
            }
            List<TeamMemory> teamMemories = team.await(teamLoad);
            if (teamMemories != null) {
                for (TeamMemory m : teamMemories) {
                    if (byId.putIfAbsent(m.memoryId(), Held.of(m)) == null) {
                        docs.add(doc(m));
                    }
                }
            }
            HybridRanker ranker = new HybridRanker(docs, settings);
            log.debug("indexed {} memories in {} ms", docs.size(), (System.nanoTime() - start) / 1_000_000);
            Corpus corpus = new Corpus(ranker, byId, new ConcurrentHashMap<>(loaded.sources().eventTexts()),
                    new ConcurrentHashMap<>());
            answers(corpus, loaded, loaded.sources().nextSaid().keySet());
            return corpus;
        });
    }

    /**
     * Keeps, for each of these source events that asks, the prompt or reply that answers
     * it (read with the corpus, so a search needs no read of its sessions; one that has
     * no answer yet is read when a search needs it).
     */
    private void answers(Corpus corpus, Loaded loaded, Collection<String> events) {
        if (settings.questionPenalty() <= 0 && settings.answerCarry() <= 0) {
            return;
        }
        for (String event : events) {
            MemorySource next = loaded.sources().nextSaid().get(event);
            if (next != null && Questions.asks(corpus.texts().get(event))) {
                corpus.answeredTurns().putIfAbsent(event, new SpokenTurn(event, next));
            }
        }
    }

    private Loaded load(String project) {
        try (Connection c = session.connection()) {
            MemoryQueries.ProjectSources sources = MemoryQueries.projectSources(c, project);
            return new Loaded(MemoryQueries.memories(c, project), sources,
                    CitationQueries.citationsOfProject(c, project),
                    settings.turnContext() > 0 ? Loaded.previousSaid(sources.nextSaid()) : Map.of());
        }
        catch (SQLException e) {
            throw new QueryException("cannot read memories: " + e.getMessage(), e);
        }
    }

    private static MemoryDoc doc(TeamMemory m) {
        return new MemoryDoc(m.memoryId(), m.kind(), "active", m.createdTs(), m.text());
    }

    private MemoryDoc doc(StoredMemory m, Loaded loaded, Map<String, List<String>> turns) {
        return new MemoryDoc(m.memoryId(), m.kind(), m.status(), m.createdTs(), m.text() + context(m, loaded),
                turns.getOrDefault(m.memoryId(), List.of()));
    }

    /**
     * What was said just before an exchange in its session, indexed with it (never
     * shown): the {@link RankingSettings#turnContext} prompts or replies before its first
     * source event. A reply such as "Maybe look into physical therapy for that?" holds
     * none of the words of "what did Sam suggest for Evan's knee?"; the turn before it
     * does. Only the lexical index reads it; the memory's vector, sources and snippet
     * stay its own.
     */
    private String context(StoredMemory m, Loaded loaded) {
        List<MemorySource> sources = loaded.sources().sources().getOrDefault(m.memoryId(), List.of());
        if (settings.turnContext() <= 0 || !"exchange".equals(m.kind()) || sources.isEmpty()) {
            return "";
        }
        StringBuilder context = new StringBuilder();
        String event = loaded.previousSaid().get(sources.get(0).eventId());
        for (int i = 0; i < settings.turnContext() && event != null; i++) {
            String text = loaded.sources().eventTexts().get(event);
            if (text != null) {
                context.append("\n\n").append(text);
            }
            event = loaded.previousSaid().get(event);
        }
        return context.toString();
    }

}
