package dev.codememory.retrieval.ranking;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns text into index terms for lexical scoring: lower case (root locale), runs of
 * Unicode letters and digits, English stop words dropped, then a light suffix stemmer
 * (plurals, {@code -ing}, {@code -ed}, {@code -ly}) so that "painting", "paints" and
 * "painted" meet at "paint". The same tokenizer serves memories and queries.
 * <p>
 * A developer's short forms meet their long ones: "repos" and "repositories" are one
 * term, as are "config" and "configuration", "deps" and "dependencies", "db" and
 * "database" ({@link #SHORT_FORMS}). Short forms that are common words in other senses
 * ("app" beside a job application, "arg" beside an argument) are left alone.
 * <p>
 * A run of backslashes, with the letter of the escape it makes ({@code \n}, {@code \t},
 * {@code \r}, {@code \"}), separates words: a tool's input and output are kept as JSON
 * source text, where {@code port: 5001\nhost: 0.0.0.0} holds the word {@code host}, not
 * {@code nhost}.
 */
public final class QueryTokenizer {

    /** Common English function words, plus question words, which carry no topic. */
    static final Set<String> STOP_WORDS = Set.of("a", "about", "above", "after", "again", "against", "all", "am", "an",
            "and", "any", "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
            "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from",
            "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
            "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself",
            "no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves",
            "out", "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
            "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to", "too",
            "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who",
            "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "s", "t", "d",
            "ll", "m", "re", "ve", "don", "didn", "doesn", "isn", "wasn", "aren", "weren", "won", "wouldn", "couldn",
            "shouldn", "haven", "hasn", "hadn", "also", "yes", "ok", "okay", "oh", "hey", "hi", "really", "thanks",
            "thank", "got", "get", "like", "one", "lot", "much", "might", "may", "must", "let", "us", "well", "still",
            "even", "yeah", "wow");

    /**
     * Each long form and the short forms that stand for it; both sides are stemmed when
     * the map is built, so the stemmer's plurals ("repos", "configs") come with them.
     * Only "dbs" is listed: words of three letters are not stemmed.
     */
    private static final String[][] SHORT_FORM_WORDS = { { "repository", "repo" }, { "configuration", "config" },
            { "directory", "dir" }, { "environment", "env" }, { "dependency", "dep" }, { "database", "db", "dbs" },
            { "production", "prod" }, { "implementation", "impl" }, { "function", "func" }, { "parameter", "param" },
            { "message", "msg" }, { "package", "pkg" }, { "library", "lib" }, { "information", "info" },
            { "performance", "perf" }, { "credential", "cred" }, { "kubernetes", "k8s" } };

    /** A stemmed short form to the stemmed long form that is indexed for it. */
    static final Map<String, String> SHORT_FORMS = shortForms();

    /** The letters that make an escape after backslashes. */
    private static final String ESCAPED = "ntr\"";

    private QueryTokenizer() {
    }

    public static List<String> tokenize(String text) {
        List<String> terms = new ArrayList<>();
        if (text == null || text.isEmpty()) {
            return terms;
        }
        String lower = text.toLowerCase(Locale.ROOT);
        int n = lower.length();
        int i = 0;
        while (i < n) {
            if (lower.charAt(i) == '\\') {
                while (i < n && lower.charAt(i) == '\\') {
                    i++;
                }
                if (i < n && ESCAPED.indexOf(lower.charAt(i)) >= 0) {
                    i++;
                }
                continue;
            }
            int cp = lower.codePointAt(i);
            if (!Character.isLetterOrDigit(cp)) {
                i += Character.charCount(cp);
                continue;
            }
            int start = i;
            while (i < n) {
                int c = lower.codePointAt(i);
                if (!Character.isLetterOrDigit(c)) {
                    break;
                }
                i += Character.charCount(c);
            }
            String word = lower.substring(start, i);
            if (!STOP_WORDS.contains(word)) {
                String term = stem(word);
                terms.add(SHORT_FORMS.getOrDefault(term, term));
            }
        }
        return terms;
    }

    /**
     * A light English stemmer: only ASCII words longer than three letters, only the
     * commonest suffixes, then a final silent "e" goes so that "hike", "hikes", "hiked"
     * and "hiking" all become "hik".
     */
    static String stem(String word) {
        if (word.length() <= 3 || !isAsciiLetters(word)) {
            return word;
        }
        String w = stripSuffix(word);
        int n = w.length();
        if (n > 3 && w.charAt(n - 1) == 'e') {
            w = w.substring(0, n - 1);
        }
        return w;
    }

    private static String stripSuffix(String w) {
        int n = w.length();
        if (w.endsWith("ies") && n > 4) {
            return w.substring(0, n - 3) + "y";
        }
        if (w.endsWith("sses")) {
            return w.substring(0, n - 2);
        }
        if (w.endsWith("ing") && n > 5) {
            return undouble(w.substring(0, n - 3));
        }
        if (w.endsWith("ied") && n > 4) {
            return w.substring(0, n - 3) + "y";
        }
        if (w.endsWith("ed") && n > 4) {
            return undouble(w.substring(0, n - 2));
        }
        if (w.endsWith("ly") && n > 5) {
            return w.substring(0, n - 2);
        }
        if (w.endsWith("ches") || w.endsWith("shes") || w.endsWith("xes")) {
            return w.substring(0, n - 2);
        }
        if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
            return w.substring(0, n - 1);
        }
        return w;
    }

    /** "running" → "runn" → "run"; keeps "ll", "ss" and "zz" ("called" → "call"). */
    private static String undouble(String w) {
        int n = w.length();
        char last = w.charAt(n - 1);
        if (n >= 3 && last == w.charAt(n - 2) && "lsz".indexOf(last) < 0 && "aeiou".indexOf(last) < 0) {
            return w.substring(0, n - 1);
        }
        return w;
    }

    private static Map<String, String> shortForms() {
        Map<String, String> forms = new HashMap<>();
        for (String[] words : SHORT_FORM_WORDS) {
            String longForm = stem(words[0]);
            for (int i = 1; i < words.length; i++) {
                forms.put(stem(words[i]), longForm);
            }
        }
        return Map.copyOf(forms);
    }

    private static boolean isAsciiLetters(String w) {
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c < 'a' || c > 'z') {
                return false;
            }
        }
        return true;
    }

}
