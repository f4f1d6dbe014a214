package dev.codememory.processors.extract;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a title read off prose is a whole clause: something a developer would write
 * down as a task, a decision, a preference or a blocker, rather than a fragment of a
 * sentence. Stateless.
 *
 * <p>
 * For Latin-script text a clause has
 * <ul>
 * <li>at least {@value #MIN_WORDS} words, of which at least {@value #MIN_CONTENT_WORDS}
 * are content words (not in {@link #FUNCTION_WORDS});</li>
 * <li>a verb: its first word is one of the {@link #VERBS} (the imperative of a task, "fix
 * the login redirect"), or one of its next three words is ("please add a test"), or it
 * holds a finite form ({@code is / are / was /
 *       should / must / will / can / need(s) / use(s) / prefer(s)} …, a contracted
 * {@code 'll 're 've 'd 'm}, a word ending in {@code -ed}), or a later word is an
 * inflection of one of the {@link #VERBS} ({@code opens}, {@code fixes},
 * {@code running});</li>
 * <li>an object: it does not end in a word that leaves it dangling (an article, a
 * preposition, a conjunction, a pronoun like "it" or "that"), so "See how much of that",
 * "circumvent it" and "you to" are not clauses;</li>
 * <li>no question mark, and it does not start with a question word.</li>
 * </ul>
 * Text with Korean, Japanese or Chinese in it is a clause when it has at least two words
 * and six characters: the verb rules above are English.
 */
final class Clauses {

    static final int MIN_WORDS = 2;
    static final int MIN_CONTENT_WORDS = 2;

    /** Words that carry no content on their own. */
    static final Set<String> FUNCTION_WORDS = Set.of("a", "an", "the", "this", "that", "these", "those", "it", "its",
            "to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "and", "or", "but", "so", "if",
            "then", "than", "as", "be", "is", "are", "was", "were", "been", "am", "do", "does", "did", "done", "have",
            "has", "had", "i", "you", "we", "they", "he", "she", "me", "us", "them", "my", "your", "our", "their",
            "his", "her", "some", "any", "all", "much", "many", "more", "most", "how", "what", "which", "who", "why",
            "when", "where", "there", "here", "just", "also", "too", "very", "really", "can", "could", "will", "would",
            "should", "shall", "may", "might", "must", "not", "no", "yes", "up", "out", "about", "over", "again", "now",
            "still", "only", "even", "ll", "ve", "re", "s", "d", "t", "m", "let", "lets");

    /** A clause may not end in one of these: the object is missing or only pointed at. */
    static final Set<String> DANGLING_ENDS = Set.of("a", "an", "the", "this", "that", "these", "those", "it", "its",
            "to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "and", "or", "but", "so", "if", "than",
            "as", "my", "your", "our", "their", "his", "her", "some", "any", "which", "there", "them", "him", "me",
            "us", "you", "we", "i", "is", "are", "was", "be", "do", "can", "will", "would", "should", "must", "not",
            "very", "more", "much", "just");

    static final Set<String> QUESTION_STARTS = Set.of("how", "what", "why", "when", "where", "which", "who", "whose",
            "is", "are", "do", "does", "did", "can", "could", "would", "should", "shall", "will", "am");

    /** Imperatives a task or a preference typically starts with, in developer English. */
    static final Set<String> VERBS = Set.of("add", "adjust", "align", "allow", "analyze", "analyse", "apply", "archive",
            "ask", "assert", "audit", "automate", "avoid", "back", "benchmark", "bind", "block", "bootstrap", "bump",
            "build", "cache", "call", "capture", "change", "check", "clarify", "clean", "clear", "close", "collect",
            "combine", "commit", "compare", "compile", "complete", "compress", "configure", "confirm", "connect",
            "consolidate", "convert", "copy", "correct", "create", "cut", "debug", "decide", "declare", "decouple",
            "deduplicate", "define", "delete", "deploy", "deprecate", "describe", "design", "detect", "disable",
            "document", "download", "drop", "dump", "edit", "embed", "emit", "enable", "encode", "enforce", "ensure",
            "estimate", "evaluate", "expand", "explain", "explore", "export", "expose", "extend", "extract", "figure",
            "file", "filter", "find", "finish", "fix", "flag", "flatten", "follow", "force", "format", "gather",
            "generate", "get", "give", "handle", "hide", "identify", "implement", "import", "improve", "include",
            "increase", "index", "inject", "inline", "inspect", "install", "instrument", "integrate", "introduce",
            "investigate", "isolate", "keep", "kill", "label", "launch", "limit", "link", "lint", "list", "load",
            "locate", "lock", "log", "look", "lower", "maintain", "make", "map", "mark", "measure", "merge", "migrate",
            "mock", "monitor", "move", "name", "normalize", "notify", "open", "optimize", "organize", "package",
            "parse", "patch", "pin", "plan", "polish", "port", "post", "preserve", "prevent", "print", "process",
            "profile", "promote", "protect", "prototype", "provide", "prune", "publish", "pull", "push", "put", "query",
            "raise", "read", "rebase", "rebuild", "record", "recover", "reduce", "refactor", "refresh", "register",
            "release", "reload", "remove", "rename", "reorganize", "repair", "replace", "report", "reproduce",
            "request", "require", "research", "reset", "resolve", "restart", "restore", "restructure", "retry",
            "return", "reuse", "review", "revert", "rewrite", "rotate", "run", "save", "scan", "schedule", "scope",
            "search", "secure", "see", "send", "separate", "serve", "set", "setup", "share", "ship", "show", "simplify",
            "skip", "sort", "split", "stabilize", "standardize", "start", "stop", "store", "stream", "strip",
            "structure", "submit", "stay", "stick", "go", "support", "switch", "sync", "tag", "take", "test",
            "throttle", "tidy", "track", "train", "transform", "translate", "trigger", "trim", "try", "tune", "turn",
            "type", "unify", "uninstall", "unpin", "update", "upgrade", "upload", "use", "validate", "verify",
            "version", "wait", "watch", "wire", "wrap", "write");

    /** Finite verb forms that make a clause of a subject and a predicate. */
    private static final Pattern FINITE = Pattern.compile("\\b(?:is|are|was|were|be|been|being|has|have|had|does|do"
            + "|did|should|must|will|would|can|could|shall|may|might|needs?|uses?|prefers?|wants?|likes?|goes|runs"
            + "|lives|depends|requires|keeps|stays|takes|makes|gets|works|fails|breaks|returns|chose|decided|agreed"
            + "|settled|picked|went|switched|moved|added|fixed|removed|changed|updated|broke|failed|caused|ran|came"
            + "|made|took|got|found|wrote|built|saw|said|gave|kept|left|lost|put|sent|spent|told|thought|held|fell"
            + "|began|knew|meant|paid|sold|stuck|threw|won|turns|turned)\\b|'(?:ll|re|ve|d|m)\\b"
            + "|\\b\\p{L}{3,}ed\\b");

    /**
     * A word: letters and digits, with inner apostrophes, dots, slashes, dashes and
     * underscores ("0.2", "we'll").
     */
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}](?:[\\p{L}\\p{N}'_/-]|\\.(?=[\\p{L}\\p{N}]))*");

    private static final Pattern CJK = Pattern.compile("[\\p{IsHangul}\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]");

    private Clauses() {
    }

    /** Whether {@code title} is a whole clause (see the class comment). */
    static boolean isClause(String title) {
        if (title == null) {
            return false;
        }
        String t = title.strip();
        if (t.isEmpty() || t.endsWith("?") || t.endsWith("？")) {
            return false;
        }
        List<String> words = WORD.matcher(t.toLowerCase(Locale.ROOT).replace('\u2019', '\''))
            .results()
            .map(m -> m.group())
            .toList();
        if (CJK.matcher(t).find()) {
            return words.size() >= 2 && t.codePointCount(0, t.length()) >= 6;
        }
        if (words.size() < MIN_WORDS || QUESTION_STARTS.contains(words.get(0))) {
            return false;
        }
        if (contentWords(words) < MIN_CONTENT_WORDS) {
            return false;
        }
        if (DANGLING_ENDS.contains(words.get(words.size() - 1))) {
            return false;
        }
        if (VERBS.contains(words.get(0)) || FINITE.matcher(String.join(" ", words)).find()) {
            return true;
        }
        for (int i = 1; i < words.size(); i++) {
            if (i <= 3 && VERBS.contains(words.get(i)) || VERBS.contains(stem(words.get(i)))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A verb form's stem: {@code opens → open}, {@code fixes → fix}, {@code added → add},
     * {@code running → run}.
     */
    static String stem(String word) {
        for (String suffix : new String[] { "ing", "ed", "es", "s" }) {
            if (word.length() > suffix.length() + 2 && word.endsWith(suffix)) {
                String stem = word.substring(0, word.length() - suffix.length());
                if (VERBS.contains(stem)) {
                    return stem;
                }
                if (stem.length() > 3 && stem.charAt(stem.length() - 1) == stem.charAt(stem.length() - 2)
                        && VERBS.contains(stem.substring(0, stem.length() - 1))) {
                    return stem.substring(0, stem.length() - 1);
                }
                if (VERBS.contains(stem + "e")) {
                    return stem + "e";
                }
            }
        }
        return word;
    }

    /**
     * How many words of {@code text} carry content: not in {@link #FUNCTION_WORDS},
     * longer than one character.
     */
    static long contentWords(String text) {
        return text == null ? 0
                : contentWords(WORD.matcher(text.toLowerCase(Locale.ROOT).replace('\u2019', '\''))
                    .results()
                    .map(m -> m.group())
                    .toList());
    }

    private static long contentWords(List<String> words) {
        return words.stream().filter(w -> !FUNCTION_WORDS.contains(w) && w.length() > 1).count();
    }

    /**
     * Whether {@code blocker} names something a task can wait for: an artifact reference
     * or at least two words.
     */
    static boolean isBlocker(String blocker) {
        if (blocker == null || blocker.isBlank()) {
            return false;
        }
        String b = blocker.strip();
        if (b.matches("(?i)https?://\\S+|[A-Z][A-Z0-9]+-\\d+|[\\w.-]+/[\\w.-]+#\\d+|#\\d+")) {
            return true;
        }
        List<String> words = WORD.matcher(b.toLowerCase(Locale.ROOT)).results().map(m -> m.group()).toList();
        long content = words.stream().filter(w -> !FUNCTION_WORDS.contains(w)).count();
        return content >= 1 && words.size() >= 2 && !DANGLING_ENDS.contains(words.get(words.size() - 1))
                || CJK.matcher(b).find() && b.length() >= 2;
    }

}
