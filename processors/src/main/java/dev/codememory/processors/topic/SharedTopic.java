package dev.codememory.processors.topic;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.text.TextCuts;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The copy of a topic memory ({@link TopicConsolidator}) for readers who may see only
 * some of the memories it rests on — the team store, which never holds a developer's
 * to-do items, conversation or private memories.
 *
 * <p>
 * <b>Body.</b> A line of the topic (one item, ending with the citation of the memory it
 * rests on) is kept when that memory is among those {@code shown}, and left out
 * otherwise: a line whose memory is not shown, or that cites none, never reaches the
 * copy. A section heading is kept when at least one of its lines is, without its
 * {@code (k of n)}: those counts count memories the copy's readers do not see. Any other
 * line is left out. A topic whose kept lines would rest on fewer than
 * {@value #MIN_MEMORIES} memories is not copied: it would add nothing to the memory it
 * cites, which is shared on its own.
 *
 * <p>
 * <b>Title.</b> {@code Topic: <name> (<n> sessions since <date>)} as the topic's own, but
 * the name is a phrase, not the label's keywords: the text of the kept line that names
 * the most of the label's features (in any case; the oldest on ties), cut to
 * {@value TopicConsolidator#LABEL_CHARS} characters; the sessions and the date are those
 * of the kept lines' memories: the title names nothing the kept lines do not.
 *
 * <p>
 * <b>Quotes.</b> A topic's quotes are the first quotes of the memories it cites, one
 * each, in the order their lines first cite them; the copy keeps those of its kept lines.
 * A topic whose body cites a different number of memories than it has quotes is not
 * copied (its quotes could not be told apart).
 */
public final class SharedTopic {

    /** The fewest memories a copy's lines rest on. */
    static final int MIN_MEMORIES = 2;

    private static final Pattern ITEM = Pattern.compile("- (.*) \\[(mem:[A-Za-z0-9_-]+)]");

    private static final Pattern HEADING = Pattern.compile("([A-Z][A-Za-z ]*?)(?: \\(\\d+ of \\d+\\))?:");

    private SharedTopic() {
    }

    /**
     * A memory a kept line may rest on.
     *
     * @param sessionId the session it was recorded in
     * @param ts when
     */
    public record Source(String sessionId, LocalDateTime ts) {
    }

    /**
     * The copy.
     *
     * @param quotes the indexes of the topic's quotes the copy keeps, in order
     * @param citations the citations of its lines, in order, each once
     */
    public record Copy(String title, String body, List<Integer> quotes, List<String> citations) {

        public Copy {
            quotes = List.copyOf(quotes);
            citations = List.copyOf(citations);
        }
    }

    /**
     * The copy of a topic that shows only lines resting on {@code shown}, or empty when
     * they would rest on fewer than {@value #MIN_MEMORIES} memories.
     * @param shown the memories the copy may cite, by citation ({@code mem:…})
     * @param quoteCount how many quotes the topic has
     */
    public static Optional<Copy> of(String title, String body, Map<String, Source> shown, int quoteCount) {
        List<String> cited = new ArrayList<>();
        Map<String, String> keptText = new LinkedHashMap<>();
        StringBuilder out = new StringBuilder();
        String heading = null;
        for (String line : body.split("\n", -1)) {
            Matcher item = ITEM.matcher(line);
            if (item.matches()) {
                String citation = item.group(2);
                if (!cited.contains(citation)) {
                    cited.add(citation);
                }
                if (!shown.containsKey(citation)) {
                    continue;
                }
                if (heading != null) {
                    out.append(out.isEmpty() ? "" : "\n").append(heading).append(':');
                    heading = null;
                }
                out.append(out.isEmpty() ? "" : "\n").append(line);
                keptText.putIfAbsent(citation, item.group(1));
                continue;
            }
            Matcher head = HEADING.matcher(line);
            if (head.matches()) {
                heading = head.group(1);
            }
        }
        if (keptText.size() < MIN_MEMORIES || cited.size() != quoteCount) {
            return Optional.empty();
        }
        List<Integer> quotes = new ArrayList<>();
        for (String citation : keptText.keySet()) {
            quotes.add(cited.indexOf(citation));
        }
        List<Source> sources = keptText.keySet().stream().map(shown::get).toList();
        long sessions = sources.stream().map(Source::sessionId).distinct().count();
        List<String> oldestFirst = keptText.keySet()
            .stream()
            .sorted(Comparator.comparing((String c) -> shown.get(c).ts()).thenComparing(cited::indexOf))
            .toList();
        String oldest = oldestFirst.get(0);
        String name = phrase(title, keptText, oldestFirst);
        LocalDateTime since = shown.get(oldest).ts();
        return Optional.of(new Copy(TopicConsolidator.title(name, sessions, since.toLocalDate()), out.toString(),
                quotes, List.copyOf(keptText.keySet())));
    }

    /**
     * The kept line that names the most of the topic's label features (the oldest on
     * ties), cut to {@value TopicConsolidator#LABEL_CHARS} characters: a phrase a
     * teammate reads, where the label is a list of keywords.
     */
    private static String phrase(String title, Map<String, String> keptText, List<String> oldestFirst) {
        List<String> features = new ArrayList<>();
        Matcher t = TopicConsolidator.TITLE.matcher(title);
        if (t.matches()) {
            for (String feature : t.group(1).split(Pattern.quote(TopicConsolidator.LABEL_SEPARATOR))) {
                if (!feature.isBlank()) {
                    features.add(feature.toLowerCase(Locale.ROOT));
                }
            }
        }
        String best = oldestFirst.get(0);
        long most = -1;
        for (String citation : oldestFirst) {
            String lower = keptText.get(citation).toLowerCase(Locale.ROOT);
            long named = features.stream().filter(lower::contains).count();
            if (named > most) {
                most = named;
                best = citation;
            }
        }
        return ContextGate.shorten(keptText.get(best), TopicConsolidator.LABEL_CHARS);
    }

}
