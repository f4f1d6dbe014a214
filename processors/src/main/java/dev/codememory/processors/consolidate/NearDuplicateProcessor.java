package dev.codememory.processors.consolidate;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.GraphUpdate;
import dev.codememory.config.graduate.SimilarEntries;
import dev.codememory.processors.canonical.CanonicalKeys;
import dev.codememory.processors.facts.ProjectFacts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * Consolidation: a verified claim that says what an older active claim of the same kind
 * and project already said (token-set Jaccard of the canonical bodies ≥
 * {@link #THRESHOLD}) supersedes it — the newer wording wins, the older entry is kept,
 * marked superseded, with a {@code supersedes} edge. A project fact read off behaviour
 * ({@link ProjectFacts}: the test command, the files edited most) supersedes the older
 * fact of its role whatever the wording: the project's way of working changed. Exchanges
 * and summaries are never merged.
 */
public class NearDuplicateProcessor implements ItemProcessor<EntryDraft, GraphUpdate> {

    public static final String STAGE = "merge";

    public static final double THRESHOLD = 0.8;

    private final SimilarEntries similar;

    /**
     * What this processor superseded, by kind and project: a chunk is written after all
     * its entries are processed, so an entry must not see as active one that an entry
     * before it in the chunk superseded. Lives as long as the step (step-scoped).
     */
    private final Map<String, Set<String>> superseded = new HashMap<>();

    public NearDuplicateProcessor(SimilarEntries similar) {
        this.similar = similar;
    }

    @Override
    public GraphUpdate process(EntryDraft entry) {
        Set<String> tokens = tokens(entry.body());
        List<GraphUpdate.Supersession> supersessions = new ArrayList<>();
        Set<String> gone = superseded.computeIfAbsent(entry.kind().key() + '\n' + entry.project(),
                k -> new HashSet<>());
        if (tokens.size() >= 3) {
            for (EntryDraft older : similar.olderCandidates(entry, Collections.unmodifiableSet(gone))) {
                double similarity = jaccard(tokens, tokens(older.body()));
                if (repeats(entry, older, similarity)) {
                    supersessions.add(supersession(older, entry, similarity));
                }
            }
        }
        // had it come first, the oldest newer entry that repeats it would have superseded
        // it
        for (EntryDraft newer : similar.newerCandidates(entry, Collections.unmodifiableSet(gone))) {
            Set<String> newerTokens = tokens(newer.body());
            double similarity = jaccard(newerTokens, tokens);
            if (newerTokens.size() >= 3 && repeats(newer, entry, similarity)) {
                supersessions.add(supersession(entry, newer, similarity));
                break;
            }
        }
        supersessions.forEach(s -> gone.add(s.olderId()));
        return new GraphUpdate(entry.entryId(), STAGE, List.of(), List.of(), List.of(), List.of(), supersessions);
    }

    /**
     * Whether {@code newer} (of at least 3 tokens), handled after {@code older},
     * supersedes it.
     */
    private static boolean repeats(EntryDraft newer, EntryDraft older, double similarity) {
        String role = role(newer);
        return similarity >= THRESHOLD || !role.isEmpty() && older.title().startsWith(role);
    }

    private static GraphUpdate.Supersession supersession(EntryDraft older, EntryDraft newer, double similarity) {
        return new GraphUpdate.Supersession(older.entryId(), newer.entryId(), Math.round(similarity * 1000) / 1000.0);
    }

    /**
     * The role prefix of a behaviour fact ({@link ProjectFacts#ROLES}), or empty for any
     * other entry.
     */
    public static String role(EntryDraft entry) {
        if (entry.kind() != CandidateKind.FACT) {
            return "";
        }
        return ProjectFacts.ROLES.stream().filter(entry.title()::startsWith).findFirst().orElse("");
    }

    static Set<String> tokens(String text) {
        Set<String> tokens = new HashSet<>();
        for (String t : CanonicalKeys.normalize(text).split(" ")) {
            if (!t.isEmpty()) {
                tokens.add(t);
            }
        }
        return tokens;
    }

    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 1.0;
        }
        int common = 0;
        for (String t : a) {
            if (b.contains(t)) {
                common++;
            }
        }
        return (double) common / (a.size() + b.size() - common);
    }

}
