package dev.codememory.processors.task;

import dev.codememory.config.text.EditDistance;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Scores a title against the tasks of a project and says when the best is a match beyond
 * doubt.
 *
 * <h2>Score</h2> 1.0 when the title's canonical key is the task's key. Otherwise, over
 * the normalised titles ({@link CanonicalKeys#normalize}),
 * {@code min(0.99, 0.6·J + 0.4·C)} where
 * <ul>
 * <li>{@code J} is a token Jaccard in which two words count as the same when they are
 * equal after dropping a plural {@code s}, or when both are alphabetic, at least 5
 * letters, and at most one edit apart (two from 9 letters): this forgives typos and
 * plurals but never a changed number ({@code "bug 12"} vs {@code "bug 13"});</li>
 * <li>{@code C} is the best of three character similarities
 * {@code 1 − levenshtein / longer length}: the titles as they are, with their words
 * sorted, and with spaces removed.</li>
 * </ul>
 * The cap keeps 1.0 for the exact key. Because {@code J} weighs 0.6, a score of 0.92
 * needs {@code J ≥ 0.87}: in practice every word must match, so a strict match means "the
 * same words, give or take order, plurals and typos".
 *
 * <h2>Strict match</h2> The top task, when its score is at least
 * {@value #STRICT_MIN_SCORE}, it leads the second by at least {@value #STRICT_MIN_GAP} (a
 * lone task leads by its own score), and it is not cancelled. A cancelled top task blocks
 * the match rather than letting the runner-up through.
 */
public final class TaskMatcher {

    public static final double STRICT_MIN_SCORE = 0.92;

    public static final double STRICT_MIN_GAP = 0.03;

    /** Candidates kept for a condition score at least this. */
    public static final double CANDIDATE_MIN_SCORE = 0.6;

    static final double TOKEN_WEIGHT = 0.6;
    static final double CHAR_WEIGHT = 0.4;
    static final double MAX_INEXACT = 0.99;

    /** Absorbs floating-point error in the gap, so that 0.95 − 0.92 counts as 0.03. */
    private static final double EPSILON = 1e-9;

    /**
     * A task scoring less can neither be a strict match nor stop one: the top task must
     * score {@value #STRICT_MIN_SCORE} and lead the runner-up by
     * {@value #STRICT_MIN_GAP}.
     */
    public static final double STRICT_FLOOR = STRICT_MIN_SCORE - STRICT_MIN_GAP - 1e-6;

    /**
     * Every task of the project scored against the title, best first (ties by task id).
     */
    public List<TaskMatch> rank(String title, String project, TaskLookup lookup) {
        return rank(title, project, lookup, 0.0);
    }

    /**
     * The tasks of the project that may score at least {@code floor}
     * ({@link TaskLookup#mayScore}), scored against the title, best first (ties by task
     * id): every task scoring at least {@code floor} is there, with its score, and any
     * other task that is there has its score too. {@link #strict(List)} of the list is
     * that of {@link #rank(String, String, TaskLookup)} when {@code floor} is at most
     * {@link #STRICT_FLOOR}.
     */
    public List<TaskMatch> rank(String title, String project, TaskLookup lookup, double floor) {
        String key = TaskKeys.task(project, title);
        String normalized = CanonicalKeys.normalize(title);
        List<TaskMatch> ranked = new ArrayList<>();
        for (TaskState task : lookup.mayScore(project, key, normalized, floor)) {
            double score = task.key().equals(key) ? 1.0 : similarity(normalized, CanonicalKeys.normalize(task.title()));
            ranked.add(new TaskMatch(task.taskId(), task.key(), task.title(), task.status(), score));
        }
        ranked.sort(Comparator.comparingDouble(TaskMatch::score).reversed().thenComparing(TaskMatch::taskId));
        return List.copyOf(ranked);
    }

    /** The strict match of {@link #rank}, if there is one. */
    public Optional<TaskMatch> strict(String title, String project, TaskLookup lookup) {
        return strict(rank(title, project, lookup, STRICT_FLOOR));
    }

    /** The strict match among already ranked tasks (best first), if there is one. */
    public static Optional<TaskMatch> strict(List<TaskMatch> ranked) {
        if (ranked.isEmpty()) {
            return Optional.empty();
        }
        TaskMatch top = ranked.get(0);
        double second = ranked.size() > 1 ? ranked.get(1).score() : 0.0;
        boolean strict = top.score() >= STRICT_MIN_SCORE && top.score() - second >= STRICT_MIN_GAP - EPSILON
                && top.status() != TaskStatus.CANCELLED;
        return strict ? Optional.of(top) : Optional.empty();
    }

    /**
     * The similarity of two normalised titles that are not the same key:
     * {@code min(0.99, 0.6·J + 0.4·C)}, see the class comment.
     */
    static double similarity(String a, String b) {
        List<String> ta = tokens(a);
        List<String> tb = tokens(b);
        double chars = Math.max(editSimilarity(a, b), Math.max(editSimilarity(sortedJoin(ta), sortedJoin(tb)),
                editSimilarity(a.replace(" ", ""), b.replace(" ", ""))));
        return Math.min(MAX_INEXACT, TOKEN_WEIGHT * softJaccard(ta, tb) + CHAR_WEIGHT * chars);
    }

    /**
     * The terms under which {@link TaskIndex} files a word of a normalised title: two
     * words {@link #sameWord} joins share one. {@code =} and the word without its plural
     * s; and for an alphabetic word of at least 5 letters, {@code ~} and every string
     * left when up to one letter is deleted (two from 9 letters) — two words within
     * {@code k} edits leave a common string after at most {@code k} deletions from each.
     */
    static Set<String> terms(String word) {
        Set<String> terms = new LinkedHashSet<>();
        terms.add("=" + singular(word));
        int[] letters = word.codePoints().toArray();
        if (letters.length >= 5 && alphabetic(word)) {
            deletions(letters, letters.length >= 9 ? 2 : 1, terms);
        }
        return terms;
    }

    private static void deletions(int[] letters, int left, Set<String> out) {
        // strings of one length are reached with the same deletions left: one seen before
        // has had its own deletions added
        if (!out.add("~" + new String(letters, 0, letters.length)) || left == 0) {
            return;
        }
        for (int i = 0; i < letters.length; i++) {
            int[] shorter = new int[letters.length - 1];
            System.arraycopy(letters, 0, shorter, 0, i);
            System.arraycopy(letters, i + 1, shorter, i, letters.length - i - 1);
            deletions(shorter, left - 1, out);
        }
    }

    /**
     * The most a title of {@code words} distinct words can score against a task of
     * {@code taskWords} distinct words when at most {@code shared} of its words have a
     * term in common with the task's ({@link #terms}): the soft Jaccard shares no more,
     * and the character similarity is at most 1.
     */
    static double bound(int shared, int words, int taskWords) {
        int h = Math.min(shared, Math.min(words, taskWords));
        double jaccard = words + taskWords == 0 ? 1.0 : (double) h / (words + taskWords - h);
        return Math.min(MAX_INEXACT, TOKEN_WEIGHT * jaccard + CHAR_WEIGHT);
    }

    /** The distinct words of a normalised title. */
    static Set<String> words(String normalized) {
        return new LinkedHashSet<>(tokens(normalized));
    }

    /**
     * Jaccard over distinct words, counting as shared the pairs {@link #sameWord} joins
     * (exact pairs first).
     */
    static double softJaccard(List<String> a, List<String> b) {
        List<String> left = new ArrayList<>(new LinkedHashSet<>(a));
        List<String> right = new ArrayList<>(new LinkedHashSet<>(b));
        int sizeA = left.size();
        int sizeB = right.size();
        if (sizeA + sizeB == 0) {
            return 1.0;
        }
        int shared = 0;
        for (var it = left.iterator(); it.hasNext();) {
            String word = it.next();
            if (right.remove(word)) {
                it.remove();
                shared++;
            }
        }
        for (String word : left) {
            for (var it = right.iterator(); it.hasNext();) {
                if (sameWord(word, it.next())) {
                    it.remove();
                    shared++;
                    break;
                }
            }
        }
        return (double) shared / (sizeA + sizeB - shared);
    }

    /**
     * Equal after dropping a plural s, or alphabetic, ≥ 5 letters and within one edit
     * (two from 9 letters).
     */
    static boolean sameWord(String a, String b) {
        String sa = singular(a);
        String sb = singular(b);
        if (sa.equals(sb)) {
            return true;
        }
        int shorter = Math.min(a.codePointCount(0, a.length()), b.codePointCount(0, b.length()));
        if (shorter < 5 || !alphabetic(a) || !alphabetic(b)) {
            return false;
        }
        return EditDistance.levenshtein(a, b) <= (shorter >= 9 ? 2 : 1);
    }

    /**
     * {@code 1 − levenshtein / longer length}, in code points; 1.0 for two empty strings.
     */
    static double editSimilarity(String a, String b) {
        int longer = Math.max(a.codePointCount(0, a.length()), b.codePointCount(0, b.length()));
        return longer == 0 ? 1.0 : 1.0 - (double) EditDistance.levenshtein(a, b) / longer;
    }

    private static List<String> tokens(String normalized) {
        return normalized.isEmpty() ? List.of() : Arrays.asList(normalized.split(" "));
    }

    private static String sortedJoin(List<String> tokens) {
        return String.join(" ", tokens.stream().sorted().toList());
    }

    private static String singular(String word) {
        if (word.length() > 3 && word.endsWith("s") && !word.endsWith("ss") && alphabetic(word)) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    private static boolean alphabetic(String word) {
        return word.codePoints().allMatch(Character::isLetter);
    }

}
