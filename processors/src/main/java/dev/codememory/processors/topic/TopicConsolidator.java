package dev.codememory.processors.topic;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.text.TextCuts;
import dev.codememory.config.topic.TopicMaterial.Member;
import dev.codememory.config.topic.TopicMaterial;
import dev.codememory.config.topic.TopicMemory;
import dev.codememory.config.topic.TopicOutcome.Replaced;
import dev.codememory.config.topic.TopicOutcome;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Groups a project's verified work into topics — pieces of work that span sessions — and
 * writes one memory per topic. Deterministic for the same memories and vectors.
 *
 * <p>
 * <b>Grouping.</b> Each memory (decision, work, insight, task) has features: the file
 * names in its title, the files listed in the body of a commit or decision, and the
 * content words of its title (lower case, a crude plural and tense stem, common words
 * left out). A feature held by at least 2 and at most {@code cap} memories of the project
 * links them, where {@code cap} is a twentieth of the project's memories, between
 * {@value #MIN_CAP} and {@value #MAX_CAP}: a word or file in everything names no topic. A
 * file both titles name weighs 2; a word, or a file one of them only lists, weighs 1; two
 * memories whose shared weight reaches 2 (a named file, or two other features) are in one
 * topic, and so are two that share one feature and whose vectors (where the embed step
 * has made them) reach a cosine of {@value #VECTOR_LINK}: the meaning confirms what one
 * shared word suggests, never links alone. Topics are the connected groups. A group
 * becomes a topic when it has at least {@value #MIN_MEMBERS} memories from at least
 * {@value #MIN_SESSIONS} sessions.
 *
 * <p>
 * <b>The memory.</b> Title: {@code Topic: <up to 3 features the group shares most> (<n>
 * sessions since <date>)}. Body, at most {@value #MAX_CHARS} characters, every line
 * ending with the citation of the memory it rests on: <pre>
 * Decided:
 * - &lt;decision&gt; [mem:…]
 * Done:
 * - Committed: &lt;subject&gt; [mem:…]   (commits, pull requests; fixes; to-do items completed)
 * Learned:
 * - &lt;insight&gt; [mem:…]
 * Still open:
 * - &lt;task&gt; (in progress) [mem:…]
 * </pre> Lines are chosen in the order of what a developer resuming the work needs — open
 * items, decisions, what was done, what was learned — newest first within each, at most
 * {@value #PER_SECTION} a section, while they fit; a section that could not show all its
 * items says how many it shows. Item texts pass the context gate and are cut at
 * {@value #ITEM_CHARS} characters.
 *
 * <p>
 * <b>Identity.</b> Entry id: {@code "ent_"} + 32 hex digits of sha256 of the project and
 * the sorted ids of the topic's memories, so an unchanged topic keeps its id (and
 * citation) and a topic that gains or loses a memory gets a new one, which replaces the
 * earlier topic it shares most cited memories with.
 */
public final class TopicConsolidator {

    private static final Logger log = LoggerFactory.getLogger(TopicConsolidator.class);

    public static final int MAX_CHARS = 1_200;
    static final int ITEM_CHARS = 120;
    static final int MIN_MEMBERS = 3;
    static final int MIN_SESSIONS = 2;
    static final int MIN_CAP = 6;
    static final int MAX_CAP = 60;
    static final int LABEL_FEATURES = 3;
    static final int PER_SECTION = 5;
    static final String LABEL_SEPARATOR = ", ";

    /** A label that is the first memory's title is cut to this many characters. */
    static final int LABEL_CHARS = 60;

    private static final int FILE_WEIGHT = 2;

    private static final int WORD_WEIGHT = 1;

    private static final int LINKED = 2;

    /**
     * The cosine (all-MiniLM-L6-v2) at which two memories sharing one feature are one
     * piece of work: the same subject in other words.
     */
    static final double VECTOR_LINK = 0.8;

    private final Function<Collection<String>, Map<String, float[]>> vectors;

    /** Groups on features alone. */
    public TopicConsolidator() {
        this(ids -> Map.of());
    }

    /**
     * @param vectors the vectors of the memories that have one, by memory id (a memory
     * not embedded yet is left out)
     */
    public TopicConsolidator(Function<Collection<String>, Map<String, float[]>> vectors) {
        this.vectors = vectors;
    }

    private static final int BODY_CHARS = 600;

    private static final String FILE = "file:";

    private static final String WORD = "word:";

    private static final Pattern FILE_NAME = Pattern.compile("(?<![\\w.-])(?:[\\w.-]+/)*([\\w-]+\\."
            + "(?:java|kt|kts|ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|c|h|cc|cpp|hpp|cs|php|swift|scala|sql|md|json|ya?ml"
            + "|toml|xml|html|css|scss|sh|gradle|properties|vue|svelte|proto|tf|ipynb))(?![\\w-])");

    /** A {@link #title}: the name is group 1. */
    static final Pattern TITLE = Pattern.compile("Topic: (.*) \\(\\d+ sessions? since \\d{4}-\\d{2}-\\d{2}\\)");

    private static final Pattern WORD_SPLIT = Pattern.compile("[^\\p{L}\\p{N}_]+");

    private static final Set<String> COMMON = Set.of("about", "above", "after", "again", "against", "also", "always",
            "another", "anything", "back", "because", "been", "before", "being", "below", "between", "both", "cannot",
            "could", "does", "doing", "done", "down", "during", "each", "else", "even", "every", "first", "from",
            "further", "have", "having", "here", "into", "just", "keep", "last", "like", "make", "many", "more", "most",
            "much", "must", "need", "never", "next", "none", "only", "other", "over", "same", "should", "since", "some",
            "such", "sure", "than", "that", "their", "them", "then", "there", "these", "they", "thing", "this", "those",
            "through", "under", "until", "very", "want", "well", "were", "what", "when", "where", "which", "while",
            "will", "with", "within", "without", "would", "your", "instead", "still", "really", "going", "let's",
            "lets", "please", "adds", "added", "update", "updates", "updated", "change", "changes", "changed", "remove",
            "removed", "fixed", "fixes", "makes", "made", "using", "used", "uses", "work", "works", "working", "file",
            "files", "code", "commit", "committed", "completed", "test", "tests");

    /**
     * Groups with the vectors {@code store} holds: the memories the embed step has
     * reached (a memory graduated in the same run has none yet, and joins a topic on its
     * features). A store that does not answer (a Milvus server that is down) leaves the
     * grouping to the features, with a warning: topics never wait for vectors.
     */
    public static TopicConsolidator withVectorsFrom(VectorStore store) {
        return new TopicConsolidator(ids -> {
            try {
                return store.vectors(ids);
            }
            catch (RuntimeException e) {
                log.warn("topics grouped on shared words and files alone: the vector store did not answer ({})",
                        e.getClass().getSimpleName());
                return Map.of();
            }
        });
    }

    /** The topics of a project's memories, and the earlier topics they replace. */
    public TopicOutcome consolidate(TopicMaterial material) {
        List<Member> members = material.members();
        List<Map<String, Feature>> features = members.stream().map(TopicConsolidator::features).toList();
        List<List<Integer>> groups = groups(members, features);
        Map<String, Integer> frequency = new HashMap<>();
        features.forEach(f -> f.keySet().forEach(k -> frequency.merge(k, 1, Integer::sum)));
        List<TopicMemory> topics = new ArrayList<>();
        for (List<Integer> group : groups) {
            List<Member> of = group.stream().map(members::get).toList();
            if (of.size() < MIN_MEMBERS || of.stream().map(Member::sessionId).distinct().count() < MIN_SESSIONS) {
                continue;
            }
            topics.add(compose(material.project(), of, label(group, features, frequency, members.size())));
        }
        topics.sort(Comparator.comparing(TopicMemory::ts).thenComparing(TopicMemory::entryId));
        return new TopicOutcome(material.project(), material.mark(), topics, replaced(material.topics(), topics));
    }

    /**
     * The connected groups of memories linked by shared features, each in member order,
     * ordered by their first member.
     */
    private List<List<Integer>> groups(List<Member> members, List<Map<String, Feature>> features) {
        int n = features.size();
        Map<String, List<Integer>> postings = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            for (String feature : features.get(i).keySet()) {
                postings.computeIfAbsent(feature, k -> new ArrayList<>()).add(i);
            }
        }
        int cap = Math.min(MAX_CAP, Math.max(MIN_CAP, n / 20));
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        Map<Long, Integer> shared = new HashMap<>();
        for (Map.Entry<String, List<Integer>> posting : postings.entrySet()) {
            List<Integer> holders = posting.getValue();
            if (holders.size() < 2 || holders.size() > cap) {
                continue;
            }
            for (int a = 0; a < holders.size(); a++) {
                for (int b = a + 1; b < holders.size(); b++) {
                    long pair = (long) holders.get(a) * n + holders.get(b);
                    int weight = Math.min(features.get(holders.get(a)).get(posting.getKey()).weight(),
                            features.get(holders.get(b)).get(posting.getKey()).weight());
                    if (shared.merge(pair, weight, Integer::sum) >= LINKED) {
                        union(parent, holders.get(a), holders.get(b));
                    }
                }
            }
        }
        // one shared feature: the vectors decide, read only for the pairs still apart
        List<int[]> apart = new ArrayList<>();
        Set<String> wanted = new LinkedHashSet<>();
        shared.forEach((pair, weight) -> {
            int a = (int) (pair / n);
            int b = (int) (pair % n);
            if (weight < LINKED && root(parent, a) != root(parent, b)) {
                apart.add(new int[] { a, b });
                wanted.add(members.get(a).memoryId());
                wanted.add(members.get(b).memoryId());
            }
        });
        Map<String, float[]> embedded = wanted.isEmpty() ? Map.of() : vectors.apply(wanted);
        for (int[] pair : apart) {
            if (cosine(embedded.get(members.get(pair[0]).memoryId()),
                    embedded.get(members.get(pair[1]).memoryId())) >= VECTOR_LINK) {
                union(parent, pair[0], pair[1]);
            }
        }
        Map<Integer, List<Integer>> byRoot = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            byRoot.computeIfAbsent(root(parent, i), k -> new ArrayList<>()).add(i);
        }
        return List.copyOf(byRoot.values());
    }

    /** The cosine of two vectors; 0 when either is missing or of another size. */
    static double cosine(float[] a, float[] b) {
        if (a == null || b == null || a.length != b.length) {
            return 0;
        }
        double dot = 0;
        double aa = 0;
        double bb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            aa += a[i] * a[i];
            bb += b[i] * b[i];
        }
        return aa == 0 || bb == 0 ? 0 : dot / Math.sqrt(aa * bb);
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = root(parent, a);
        int rb = root(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    /**
     * A memory's features, each with how it reads: the file names it mentions, the
     * content words of its title.
     */
    static Map<String, Feature> features(Member m) {
        Map<String, Feature> out = new LinkedHashMap<>();
        Matcher named = FILE_NAME.matcher(m.title());
        while (named.find()) {
            out.putIfAbsent(FILE + named.group(1).toLowerCase(Locale.ROOT), new Feature(named.group(1), FILE_WEIGHT));
        }
        if ("work".equals(m.kind()) || "decision".equals(m.kind())) {
            Matcher listed = FILE_NAME.matcher(m.body().substring(0, Math.min(BODY_CHARS, m.body().length())));
            while (listed.find()) {
                out.putIfAbsent(FILE + listed.group(1).toLowerCase(Locale.ROOT),
                        new Feature(listed.group(1), WORD_WEIGHT));
            }
        }
        for (String word : WORD_SPLIT.split(FILE_NAME.matcher(m.title()).replaceAll(" "))) {
            String lower = word.toLowerCase(Locale.ROOT);
            if (lower.length() >= 4 && !COMMON.contains(lower) && !lower.chars().allMatch(Character::isDigit)) {
                out.putIfAbsent(WORD + stem(lower), new Feature(lower, WORD_WEIGHT));
            }
        }
        return out;
    }

    /** Plural and tense endings off, so "migration" and "migrations" are one word. */
    static String stem(String word) {
        if (word.length() > 5 && word.endsWith("ies")) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (word.length() > 6 && word.endsWith("ing")) {
            return word.substring(0, word.length() - 3);
        }
        if (word.length() > 5 && word.endsWith("ed")) {
            return word.substring(0, word.length() - 2);
        }
        if (word.length() > 4 && word.endsWith("s") && !word.endsWith("ss")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    /**
     * The features the group shares most, rarest in the project first among equals: up to
     * {@value #LABEL_FEATURES}, each held by at least two of its memories, files first on
     * ties.
     */
    private static List<String> label(List<Integer> group, List<Map<String, Feature>> features,
            Map<String, Integer> frequency, int projectSize) {
        Map<String, Integer> count = new HashMap<>();
        Map<String, String> reads = new HashMap<>();
        for (int i : group) {
            features.get(i).forEach((k, v) -> {
                count.merge(k, 1, Integer::sum);
                reads.putIfAbsent(k, v.reads());
            });
        }
        return count.entrySet()
            .stream()
            .filter(e -> e.getValue() >= 2)
            .sorted(Comparator
                .comparingDouble((Map.Entry<String, Integer> e) -> -e.getValue()
                        * (e.getKey().startsWith(FILE) ? FILE_WEIGHT : WORD_WEIGHT)
                        * Math.log(1.0 + (double) projectSize / frequency.get(e.getKey())))
                .thenComparing(Map.Entry::getKey))
            .limit(LABEL_FEATURES)
            .map(e -> reads.get(e.getKey()))
            .toList();
    }

    private static TopicMemory compose(String project, List<Member> members, List<String> label) {
        List<Member> newestFirst = members.stream()
            .sorted(Comparator.comparing(Member::ts).thenComparing(Member::memoryId).reversed())
            .toList();
        List<Line> decided = new ArrayList<>();
        List<Line> done = new ArrayList<>();
        List<Line> learned = new ArrayList<>();
        List<Line> open = new ArrayList<>();
        for (Member m : newestFirst) {
            switch (m.kind()) {
                case "decision" -> decided.add(new Line(m.title(), "", m));
                case "work" -> done.add(new Line("Committed: " + m.title(), "", m));
                case "insight" -> (m.title().startsWith("Fixed `") ? done : learned).add(new Line(m.title(), "", m));
                case "task" -> {
                    if ("done".equals(m.status())) {
                        done.add(new Line("Completed: " + m.title(), "", m));
                    }
                    else if (!m.status().isEmpty() && !"cancelled".equals(m.status())) {
                        open.add(new Line(m.title(), m.status().replace('_', ' '), m));
                    }
                }
                default -> {
                }
            }
        }
        // sections by what resuming the work needs first; shown in reading order
        List<Section> byNeed = List.of(new Section("Still open", open), new Section("Decided", decided),
                new Section("Done", done), new Section("Learned", learned));
        Map<String, List<Line>> chosen = new HashMap<>();
        int used = 0;
        for (Section section : byNeed) {
            List<Line> lines = new ArrayList<>();
            for (Line line : section.lines()) {
                if (lines.size() == PER_SECTION) {
                    break;
                }
                int heading = lines.isEmpty() ? headingFor(section, section.lines().size()).length() + 1 : 0;
                int length = line.render().length() + 1 + heading;
                if (used + length > MAX_CHARS) {
                    break;
                }
                used += length;
                lines.add(line);
            }
            chosen.put(section.title(), lines);
        }
        StringBuilder body = new StringBuilder();
        Map<String, Quote> cited = new LinkedHashMap<>();
        for (Section section : List.of(byNeed.get(1), byNeed.get(2), byNeed.get(3), byNeed.get(0))) {
            List<Line> lines = chosen.get(section.title());
            if (lines.isEmpty()) {
                continue;
            }
            body.append(body.length() == 0 ? "" : "\n")
                .append(lines.size() < section.lines().size() ? headingFor(section, lines.size())
                        : section.title() + ":");
            for (Line line : lines) {
                body.append('\n').append(line.render());
                cited.putIfAbsent(line.member().memoryId(), line.member().quote());
            }
        }
        List<String> ids = members.stream().map(Member::memoryId).sorted().toList();
        String id = "ent_" + CanonicalKeys.sha256("topic|" + project + "|" + String.join(",", ids)).substring(0, 32);
        long sessions = members.stream().map(Member::sessionId).distinct().count();
        Member first = members.stream().min(Comparator.comparing(Member::ts)).orElseThrow();
        Member newest = newestFirst.get(0);
        String name = label.isEmpty() ? ContextGate.shorten(oneLine(first.title()), LABEL_CHARS)
                : String.join(LABEL_SEPARATOR, label);
        String title = title(name, sessions, first.ts().toLocalDate());
        return new TopicMemory(id, project, newest.sessionId(), newest.ts(), title, body.toString(),
                CanonicalKeys.key("topic:" + project, name + " " + id), List.copyOf(cited.keySet()),
                List.copyOf(cited.values()), ids);
    }

    /**
     * A topic's title: {@code Topic: <name> (<n> sessions since <date>)}, the name its
     * label's features joined by {@value #LABEL_SEPARATOR} ({@code 1 session} in a
     * {@link SharedTopic}; a topic itself spans at least {@value #MIN_SESSIONS}).
     */
    static String title(String name, long sessions, LocalDate since) {
        return "Topic: " + name + " (" + sessions + (sessions == 1 ? " session" : " sessions") + " since " + since
                + ")";
    }

    private static String headingFor(Section section, int shown) {
        return section.title() + " (" + shown + " of " + section.lines().size() + "):";
    }

    /**
     * Earlier topics not among the new ones, each replaced by the new topic that cites
     * the most of its memories (the earliest on ties), or by none.
     */
    private static List<Replaced> replaced(List<TopicMaterial.Topic> earlier, List<TopicMemory> topics) {
        Set<String> ids = new HashSet<>();
        topics.forEach(t -> ids.add(t.entryId()));
        List<Replaced> out = new ArrayList<>();
        for (TopicMaterial.Topic old : earlier) {
            if (ids.contains(old.entryId())) {
                continue;
            }
            Set<String> cites = new LinkedHashSet<>(old.cites());
            TopicMemory best = null;
            long bestShared = 0;
            for (TopicMemory t : topics) {
                long shared = t.members().stream().filter(cites::contains).count();
                if (shared > bestShared) {
                    best = t;
                    bestShared = shared;
                }
            }
            out.add(new Replaced(old.entryId(), best == null ? null : best.entryId()));
        }
        return out;
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    private record Section(String title, List<Line> lines) {
    }

    /** A feature as it reads, and what sharing it weighs. */
    record Feature(String reads, int weight) {
    }

    /**
     * One cited line: the item's text through the context gate, its detail, its memory.
     */
    private record Line(String text, String detail, Member member) {

        String render() {
            String shown = TextCuts.shorten(oneLine(ContextGate.pass(text).text()), ITEM_CHARS);
            return "- " + (detail.isEmpty() ? shown : shown + " (" + detail + ")") + " [" + member.citation() + "]";
        }
    }

}
