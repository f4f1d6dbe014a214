package dev.codememory.retrieval.context;

import dev.codememory.capture.guard.Provenance;
import dev.codememory.config.json.Json;
import dev.codememory.config.text.TextCuts;
import dev.codememory.retrieval.ranking.PastQuestion;
import dev.codememory.retrieval.ranking.QueryTokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The lines of recorded work that answer a {@link PastQuestion}: out of the texts of the
 * best memories for it (their own title and body, and the prompts, replies and tool calls
 * they were recorded from), the sentences that respond to the question's words and to
 * what it asks for.
 *
 * <p>
 * <b>How a line is scored.</b> Every text is cut into lines, and lines into sentences (a
 * list marker and the citations a text holds are left out; a line ends a sentence, and so
 * does {@code . ! ?} before a capital, a quote or a backquote). A tool's input and
 * output, JSON as the hook carried it, are read as their string values. Each sentence
 * scores <pre>
 *   0.55·S + 0.20·E + 0.20·K + 0.15·R
 *   S = the share of the question's IDF mass the sentence holds, averaged with the share
 *       it holds together with the sentences before and after it
 *   E = the same share over the whole text the sentence is in
 *   K = 1 when the sentence has the shape the question wants (see {@link #shaped}), else 0
 *   R = 1 − rank/10, the rank of its memory among the hits (0 = best)
 * </pre> A sentence that itself asks a question is never an answer. A sentence whose
 * relevance, (0.55·S + 0.20·E) / 0.75, is below {@value #MIN_RELEVANCE} is not taken:
 * what answers a question shares its words or stands in a text that does.
 *
 * <p>
 * <b>What is shown.</b> Nothing unless the best sentence scores at least
 * {@value #MIN_SCORE}; then the best {@value #MAX_LINES} sentences of different texts'
 * words, best first, each with what follows it in its text: the whole list that a line
 * ending in {@code :} introduces, else the next sentence, up to {@value #LINE_CHARS}
 * characters; a tool call is shown whole (its command and its description), cut to as
 * many. A line is left out when its sentence's words are in a line already taken (the
 * same sentence in a memory and in its source, or in the text that follows another), and
 * after {@value #PER_MEMORY} lines of one memory. Of equal scores, a source event's words
 * come before the memory's own rendering of them. The thresholds and weights were set on
 * the development questions and checked against the same questions asked before their
 * answer existed: at these values 28 of 46 answers were shown and 1 of 43 unanswerable
 * questions got a line.
 */
public final class AnswerLines {

    static final double MIN_SCORE = 0.40;

    static final double MIN_RELEVANCE = 0.30;

    static final int MAX_LINES = 4;

    static final int LINE_CHARS = 320;

    static final int PER_MEMORY = 2;

    private static final double SENTENCE = 0.55;

    /**
     * The weight, within S, of the sentence read with its neighbours: an answer often
     * does not repeat the question's words, the sentence before or after it does.
     */
    private static final double AROUND = 0.5;

    private static final double TEXT = 0.20;

    private static final double SHAPE = 0.20;

    private static final double RANK = 0.15;

    private static final int SHORTEST = 8;

    private static final int MAX_RANKS = 10;

    private static final Pattern LIST_MARKER = Pattern
        .compile("^(?:(?:[-*+•>]|\\d{1,3}[.)]|#{1,6})\\s+(?:\\[[ xX]]\\s+)?)+");

    /**
     * A citation inside a recorded text (a session summary cites the memories it lists):
     * the line shown cites its own memory.
     */
    private static final Pattern CITATION = Pattern.compile("\\s*\\[mem:[A-Za-z0-9_-]+]");

    /** Besides a capital, what a sentence may start with. */
    private static final String SENTENCE_STARTS = "`\"'([*";

    private static final Pattern REASON = Pattern.compile("(?i)\\b(?:because|since|so that|due to|caused by|"
            + "the reason|in order to|to avoid|otherwise|which (?:meant|means|caused)|led to|instead of|as it|"
            + "that's why|thus|hence)\\b");

    private static final Pattern FIXED = Pattern.compile("(?i)\\b(?:fix|fixed|fixes|the (?:issue|problem|bug|cause|"
            + "culprit) (?:was|is)|resolved|solved|changed|replaced|switched|added|removed|now (?:works|passes)|"
            + "by (?:adding|using|setting|changing|removing|replacing)|workaround|solution)\\b");

    private static final Pattern STATE = Pattern.compile("(?i)\\b(?:left|remaining|todo|pending|still|not yet|next|"
            + "done|completed|finished|open|blocked|in progress)\\b|✅|☐|\\[ ]");

    private static final Pattern DECIDED = Pattern.compile("(?i)\\b(?:decided|decision|chose|choose|went with|"
            + "go with|settled|picked|instead of|rather than|prefer|we(?:'ll| will) use|switch(?:ed)? to|"
            + "drop(?:ped)?|use)\\b");

    private static final Pattern COMMAND = Pattern.compile("`[^`]+`|\\$ |\\b(?:npm|npx|pip|pip3|uv|mvn|gradle|git|"
            + "gh|docker|make|python|python3|cargo|go|node|brew|curl|kubectl|yarn|pnpm|bash|sh|java)\\s+\\S|\\s--?\\w");

    private static final Pattern NUMBER = Pattern.compile("\\b\\d+(?:\\.\\d+)*\\b");

    private static final Pattern PATH = Pattern.compile("[\\w.~-]*/[\\w./-]+|\\b[\\w-]+\\.(?:py|js|ts|tsx|java|kt|"
            + "json|ya?ml|toml|md|sh|go|rs|txt|cfg|ini|xml|html|css|sql|ex|exs|rb|c|h|cpp)\\b");

    private static final Pattern URL = Pattern
        .compile("https?://\\S+|\\b[\\w-]+(?:\\.[\\w-]+)+:\\d+\\b|localhost:\\d+");

    private static final Pattern ERROR = Pattern.compile("(?i)\\b(?:error|exception|failed|failure|fatal|traceback|"
            + "denied|refused|not found|cannot|can't|unable|invalid|no such)\\b|\\bE[A-Z]{3,}\\b");

    private static final Pattern CODE = Pattern.compile("`[^`]+`|\\b[a-z]+[A-Z]\\w+\\b|\\b\\w+_\\w+\\b");

    /**
     * A text an answer may come from.
     *
     * @param memoryId the memory it belongs to
     * @param provenance whose words: for the memory's own title and body, null (what was
     * recorded, gated unless the user's)
     * @param json true for a tool's input or output as the hook carried it (read as its
     * string values)
     */
    public record Source(String memoryId, Provenance provenance, String text, boolean json) {

        public Source {
            Objects.requireNonNull(memoryId, "memoryId");
            Objects.requireNonNull(text, "text");
        }

    }

    /** One answering line: the hit it belongs to, the words and whose they are. */
    public record Line(ContextHit hit, Provenance provenance, String text, double score) {
    }

    private AnswerLines() {
    }

    /**
     * @param question what the prompt asks
     * @param termWeights the prompt's index terms ({@link QueryTokenizer}) with their IDF
     * over the project's memories
     * @param hits the ranked hits, best first
     * @param sources the texts of those hits, any order
     * @return the lines that answer, best first; empty when none does
     */
    public static List<Line> of(PastQuestion question, Map<String, Double> termWeights, List<ContextHit> hits,
            List<Source> sources) {
        double mass = termWeights.values().stream().mapToDouble(Double::doubleValue).sum();
        if (mass <= 0 || hits.isEmpty()) {
            return List.of();
        }
        Map<String, Integer> rankOf = new java.util.HashMap<>();
        for (int i = 0; i < hits.size() && i < MAX_RANKS; i++) {
            rankOf.putIfAbsent(hits.get(i).memoryId(), i);
        }
        List<Scored> scored = new ArrayList<>();
        for (Source source : sources) {
            Integer rank = rankOf.get(source.memoryId());
            if (rank == null) {
                continue;
            }
            String text = source.json() ? stringValues(source.text()) : source.text();
            double whole = coverage(termWeights, mass, text);
            List<String> sentences = sentences(text);
            // each sentence tokenized once; its neighbours' words are a union of sets
            List<Set<String>> words = sentences.stream()
                .map(x -> (Set<String>) new HashSet<>(QueryTokenizer.tokenize(x)))
                .toList();
            boolean call = source.provenance() != null && source.provenance().origin() == Provenance.Origin.TOOL_CALL;
            for (int k = 0; k < sentences.size(); k++) {
                String sentence = sentences.get(k);
                if (sentence.length() < SHORTEST || sentence.endsWith("?")) {
                    continue;
                }
                Set<String> around = new HashSet<>(words.get(k));
                words.subList(Math.max(0, k - 1), Math.min(sentences.size(), k + 2)).forEach(around::addAll);
                double own = (1 - AROUND) * coverage(termWeights, mass, words.get(k))
                        + AROUND * coverage(termWeights, mass, around);
                if ((SENTENCE * own + TEXT * whole) / (SENTENCE + TEXT) < MIN_RELEVANCE) {
                    continue;
                }
                double score = SENTENCE * own + TEXT * whole + SHAPE * (shaped(question, sentence) ? 1 : 0)
                        + RANK * (1 - rank / (double) MAX_RANKS);
                String shown = call ? String.join(" — ", sentences) : withFollowing(sentences, k);
                scored.add(new Scored(hits.get(rank), source.provenance(), sentence,
                        shown.length() > LINE_CHARS ? shown.substring(0, LINE_CHARS) : shown, score));
            }
        }
        scored.sort(Comparator.comparingDouble(Scored::score).reversed());
        if (scored.isEmpty() || scored.get(0).score() < MIN_SCORE) {
            return List.of();
        }
        List<Line> lines = new ArrayList<>();
        List<String> taken = new ArrayList<>();
        Map<String, Integer> perMemory = new java.util.HashMap<>();
        for (Scored s : scored) {
            String words = String.join(" ", QueryTokenizer.tokenize(s.text()));
            String core = String.join(" ", QueryTokenizer.tokenize(s.sentence()));
            if (perMemory.getOrDefault(s.hit().memoryId(), 0) == PER_MEMORY
                    || taken.stream().anyMatch(t -> t.contains(core) || words.contains(t))) {
                continue;
            }
            taken.add(words);
            perMemory.merge(s.hit().memoryId(), 1, Integer::sum);
            lines.add(new Line(s.hit(), s.provenance(), s.text(), s.score()));
            if (lines.size() == MAX_LINES) {
                break;
            }
        }
        return lines;
    }

    /** Whether the sentence holds what the question asks for. */
    static boolean shaped(PastQuestion question, String sentence) {
        Pattern wanted = switch (question.kind()) {
            case WHY -> REASON;
            case FIX -> FIXED;
            case STATUS -> STATE;
            case DECISION -> DECIDED;
            case HOWTO -> COMMAND;
            case VALUE, OTHER -> switch (question.wanted()) {
                case NUMBER -> NUMBER;
                case PATH -> PATH;
                case URL -> URL;
                case COMMAND -> COMMAND;
                case ERROR -> ERROR;
                case CODE -> CODE;
                case NONE -> null;
            };
        };
        return wanted != null && wanted.matcher(sentence).find();
    }

    /**
     * The sentences of a text: each line without its list marker, cut at a sentence end.
     */
    static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            String l = LIST_MARKER.matcher(line.strip()).replaceFirst("").strip();
            if (l.isEmpty() || l.startsWith("```")) {
                continue;
            }
            int start = 0;
            for (int end = sentenceEnd(l, 0); start < l.length(); end = sentenceEnd(l, start)) {
                String t = singleSpaced(l.substring(start, end));
                if (!t.isEmpty()) {
                    out.add(t);
                }
                start = end;
                while (start < l.length() && TextCuts.isSpace(l.charAt(start))) {
                    start++;
                }
            }
        }
        return out;
    }

    /**
     * Where the sentence that starts at {@code from} ends: at the first {@code .},
     * {@code !} or {@code ?} followed by spaces and a capital, a quote, a bracket or an
     * emphasis mark; else at the line's end.
     */
    private static int sentenceEnd(String line, int from) {
        for (int i = from + 1; i < line.length(); i++) {
            char c = line.charAt(i - 1);
            if (TextCuts.isSpace(line.charAt(i)) && (c == '.' || c == '!' || c == '?')) {
                int next = i;
                while (next < line.length() && TextCuts.isSpace(line.charAt(next))) {
                    next++;
                }
                if (next < line.length() && startsSentence(line.charAt(next))) {
                    return i;
                }
                i = next;
            }
        }
        return line.length();
    }

    private static boolean startsSentence(char c) {
        return c >= 'A' && c <= 'Z' || SENTENCE_STARTS.indexOf(c) >= 0;
    }

    /** A sentence without the citations it carries, its spaces one each, stripped. */
    private static String singleSpaced(String sentence) {
        String s = sentence.contains("[mem:") ? CITATION.matcher(sentence).replaceAll("") : sentence;
        StringBuilder out = new StringBuilder(s.length());
        boolean gap = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (TextCuts.isSpace(c)) {
                gap = true;
                continue;
            }
            if (gap && out.length() > 0) {
                out.append(' ');
            }
            gap = false;
            out.append(c);
        }
        return out.toString().strip();
    }

    /**
     * The sentence with what follows it: the list a sentence ending in {@code :}
     * introduces, else the next sentence, within {@value #LINE_CHARS} characters.
     */
    private static String withFollowing(List<String> sentences, int k) {
        StringBuilder shown = new StringBuilder(sentences.get(k));
        boolean introduces = sentences.get(k).endsWith(":");
        for (int j = k + 1; j < sentences.size() && (introduces || j == k + 1); j++) {
            if (shown.length() + 1 + sentences.get(j).length() > LINE_CHARS) {
                break;
            }
            shown.append(' ').append(sentences.get(j));
        }
        return shown.toString();
    }

    private static double coverage(Map<String, Double> termWeights, double mass, String text) {
        return coverage(termWeights, mass, new HashSet<>(QueryTokenizer.tokenize(text)));
    }

    private static double coverage(Map<String, Double> termWeights, double mass, Set<String> terms) {
        double covered = 0;
        for (Map.Entry<String, Double> w : termWeights.entrySet()) {
            if (terms.contains(w.getKey())) {
                covered += w.getValue();
            }
        }
        return covered / mass;
    }

    /**
     * The string values of a JSON text, one per line, in document order; the text itself
     * when it is not JSON.
     */
    static String stringValues(String text) {
        Object value;
        try {
            value = Json.parse(text);
        }
        catch (RuntimeException notJson) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        appendStrings(value, out);
        return out.toString();
    }

    private static void appendStrings(Object value, StringBuilder out) {
        if (value instanceof String s) {
            out.append(out.length() > 0 ? "\n" : "").append(s);
        }
        else if (value instanceof Map<?, ?> map) {
            map.values().forEach(v -> appendStrings(v, out));
        }
        else if (value instanceof List<?> list) {
            list.forEach(v -> appendStrings(v, out));
        }
    }

    private record Scored(ContextHit hit, Provenance provenance, String sentence, String text, double score) {
    }

}
