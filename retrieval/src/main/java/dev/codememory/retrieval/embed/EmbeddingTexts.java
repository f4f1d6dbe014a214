package dev.codememory.retrieval.embed;

import dev.codememory.config.text.TextCuts;
import dev.codememory.config.vector.MemoryTexts;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text embedded for a memory. Most memories are embedded whole: title, then body (the
 * title left out when the body starts with it), at most {@value #WHOLE_MAX_CHARS}
 * characters; the tokenizer truncates the rest. A task is embedded without its
 * {@code status:} line: the same to-do item pending, in progress or done is one text (the
 * embed step embeds identical texts of a project once and shares the vector), and its
 * status stays in its body for the lexical index and in its entity.
 *
 * <p>
 * The rules are part of what a vector means: a change to them should come with a new
 * embedding version (the token limit is one), so that stored vectors are made again.
 *
 * <p>
 * An exchange is a prompt and a reply, and the reply is usually the longer part (on real
 * coding sessions: prompts median 86 characters, replies median 524, p90 1,270): embedded
 * whole and truncated, its vector stands for the prompt and the reply's first few
 * sentences, whatever they say. When the exchange is longer than {@code budget}
 * characters, it is embedded as the prompt followed by the reply's sentences that answer
 * it, in reply order, chosen by score until the budget is spent (at least one is always
 * taken): a sentence scores the number of distinct prompt words (three letters or more,
 * lower case, stop words left out) it contains, plus {@value #FIRST_SENTENCE_BONUS} for
 * the reply's first sentence, which most often states the answer; ties go to the earlier
 * sentence. Sentences are {@link TextCuts#sentences}' (fenced code left out). A prompt
 * longer than the budget is kept whole; the tokenizer cuts it. The whole exchange is
 * embedded when its reply cannot be told apart from its prompt (no reply quote, or the
 * quote not found after a blank line).
 */
public final class EmbeddingTexts implements MemoryTexts {

    /** The longest text handed to the tokenizer. */
    public static final int WHOLE_MAX_CHARS = 4_000;

    /** The exchange budget the product uses. */
    public static final int EXCHANGE_BUDGET = 400;

    static final double FIRST_SENTENCE_BONUS = 0.5;

    /** A task's status line: the task is the same item at every status. */
    private static final Pattern STATUS_LINE = Pattern.compile("\\n?^status: [^\\n]*$", Pattern.MULTILINE);

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_]{3,}");

    private static final Set<String> STOP_WORDS = Set.of("the", "and", "for", "are", "but", "not", "you", "your", "all",
            "any", "can", "had", "has", "have", "her", "his", "how", "its", "our", "out", "was", "were", "what", "when",
            "where", "which", "who", "why", "will", "with", "this", "that", "these", "those", "from", "they", "them",
            "then", "than", "there", "here", "into", "about", "would", "could", "should", "just", "also", "does", "did",
            "let", "lets", "please", "now", "some", "more", "most", "very", "been", "being", "one");

    private final int budget;

    /**
     * @param budget characters an exchange may take before its reply is cut down to the
     * sentences that answer the prompt
     */
    public EmbeddingTexts(int budget) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be positive, was " + budget);
        }
        this.budget = budget;
    }

    @Override
    public String embeddingText(String kind, String title, String body, String replyQuote) {
        if ("task".equals(kind)) {
            return whole(title, STATUS_LINE.matcher(body).replaceAll(""));
        }
        if ("exchange".equals(kind) && body.length() > budget && replyQuote != null && !replyQuote.isEmpty()) {
            int blank = body.indexOf("\n\n" + replyQuote);
            if (blank > 0) {
                return exchange(body.substring(0, blank), body.substring(blank + 2));
            }
        }
        return whole(title, body);
    }

    /** Title, then body, at most {@value #WHOLE_MAX_CHARS} characters. */
    public static String whole(String title, String body) {
        String text = body.startsWith(title) ? body : title + "\n" + body;
        return text.length() > WHOLE_MAX_CHARS ? text.substring(0, WHOLE_MAX_CHARS) : text;
    }

    /** The prompt and the reply's sentences that answer it, within the budget. */
    String exchange(String prompt, String reply) {
        List<String> sentences = TextCuts.sentences(reply);
        if (sentences.isEmpty()) {
            return whole(prompt, prompt + "\n\n" + reply);
        }
        Set<String> asked = words(prompt);
        double[] scores = new double[sentences.size()];
        Integer[] byScore = new Integer[sentences.size()];
        for (int i = 0; i < scores.length; i++) {
            Set<String> said = words(sentences.get(i));
            said.retainAll(asked);
            scores[i] = said.size() + (i == 0 ? FIRST_SENTENCE_BONUS : 0);
            byScore[i] = i;
        }
        java.util.Arrays.sort(byScore, (a, b) -> scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : a - b);
        boolean[] taken = new boolean[sentences.size()];
        int left = budget - prompt.length();
        for (int k = 0; k < byScore.length; k++) {
            int i = byScore[k];
            int cost = sentences.get(i).length() + 1;
            if (k == 0 || cost <= left) {
                taken[i] = true;
                left -= cost;
            }
        }
        StringBuilder text = new StringBuilder(prompt.strip());
        for (int i = 0; i < taken.length; i++) {
            if (taken[i]) {
                text.append(i == 0 || !taken[i - 1] ? "\n" : " ").append(sentences.get(i));
            }
        }
        return text.length() > WHOLE_MAX_CHARS ? text.substring(0, WHOLE_MAX_CHARS) : text.toString();
    }

    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            if (!STOP_WORDS.contains(m.group())) {
                words.add(m.group());
            }
        }
        return words;
    }

}
