package dev.codememory.processors.align;

import dev.codememory.config.text.EditDistance;
import java.util.Optional;

/**
 * Finds where a quote (evidence an extractor copied out of a session message) sits in
 * that message, so spans are computed by the pipeline and never taken from the model. A
 * quote that cannot be found yields no alignment, and the entry it supports must not be
 * promoted to verified.
 *
 * <p>
 * Steps, first hit wins:
 * <ol>
 * <li>{@link Method#EXACT}: the first verbatim occurrence; confidence 1.0.</li>
 * <li>{@link Method#WHITESPACE}: the first occurrence once runs of whitespace (newlines,
 * tabs, no-break spaces included) are collapsed to one space and both ends trimmed, on
 * both sides; the span is mapped back to the original text, so it starts and ends on
 * non-whitespace and keeps the source's own whitespace inside; confidence
 * {@value #WHITESPACE_CONFIDENCE}.</li>
 * <li>{@link Method#FUZZY}: only for quotes of at least {@value #FUZZY_MIN_QUOTE_LENGTH}
 * code points (after collapsing) that are no longer than the source. The most similar
 * window of the collapsed source, by {@code 1 - levenshtein / max(length)} over code
 * points, if it reaches {@value #FUZZY_THRESHOLD}; confidence is that similarity, capped
 * at {@value #FUZZY_MAX_CONFIDENCE} so it stays below the whitespace band. See
 * {@link FuzzySearch} for the algorithm and its cost.</li>
 * </ol>
 * Comparison is by code point and case-sensitive, with no Unicode normalisation; spans
 * never split a surrogate pair. A {@code null} source, or a {@code null} or blank quote,
 * aligns nowhere.
 *
 * <p>
 * Stateless and thread-safe.
 */
public final class EvidenceAligner {

    public static final double FUZZY_THRESHOLD = 0.85;

    public static final double WHITESPACE_CONFIDENCE = 0.95;

    public static final double FUZZY_MAX_CONFIDENCE = 0.94;

    /**
     * Shorter quotes match too many places approximately to be evidence; they must match
     * exactly.
     */
    public static final int FUZZY_MIN_QUOTE_LENGTH = 12;

    public EvidenceAligner() {
    }

    /**
     * Finds the quote in the source. Empty when it is not there (never verified then).
     */
    public Optional<Alignment> align(String source, String quote) {
        if (source == null || quote == null) {
            return Optional.empty();
        }
        NormalizedText normalizedQuote = NormalizedText.of(quote);
        if (normalizedQuote.length() == 0) {
            return Optional.empty();
        }
        int exact = exactIndexOf(source, quote);
        if (exact >= 0) {
            return Optional.of(new Alignment(exact, exact + quote.length(), 1.0, Method.EXACT));
        }
        NormalizedText normalizedSource = NormalizedText.of(source);
        int found = normalizedSource.indexOf(normalizedQuote);
        if (found >= 0) {
            return Optional.of(span(normalizedSource, found, found + normalizedQuote.length(), WHITESPACE_CONFIDENCE,
                    Method.WHITESPACE));
        }
        int m = normalizedQuote.length();
        if (m < FUZZY_MIN_QUOTE_LENGTH || m > normalizedSource.length()) {
            return Optional.empty();
        }
        return fuzzy(normalizedSource, normalizedQuote);
    }

    /**
     * First verbatim occurrence whose ends do not cut a surrogate pair (only a quote with
     * a lone surrogate can).
     */
    private static int exactIndexOf(String source, String quote) {
        for (int from = 0;;) {
            int index = source.indexOf(quote, from);
            if (index < 0 || (!splitsPair(source, index) && !splitsPair(source, index + quote.length()))) {
                return index;
            }
            from = index + 1;
        }
    }

    private static boolean splitsPair(String text, int index) {
        return index > 0 && index < text.length() && Character.isHighSurrogate(text.charAt(index - 1))
                && Character.isLowSurrogate(text.charAt(index));
    }

    private static Optional<Alignment> fuzzy(NormalizedText source, NormalizedText quote) {
        int[] pattern = quote.codePoints();
        int[] text = source.codePoints();
        FuzzySearch.Window window = FuzzySearch.best(pattern, text, FUZZY_THRESHOLD);
        if (window == null) {
            return Optional.empty();
        }
        int start = window.start();
        int end = window.end();
        int distance = window.distance();
        // the quote is trimmed, so a space at either end of the window is an edit;
        // dropping it never lowers
        // the similarity
        boolean trimmed = false;
        while (start < end && text[start] == ' ') {
            start++;
            trimmed = true;
        }
        while (end > start && text[end - 1] == ' ') {
            end--;
            trimmed = true;
        }
        if (start == end) {
            return Optional.empty();
        }
        if (trimmed) {
            distance = EditDistance.levenshtein(pattern, text, start, end);
        }
        double similarity = FuzzySearch.similarity(pattern.length, end - start, distance);
        if (similarity < FUZZY_THRESHOLD - 1e-12) {
            return Optional.empty();
        }
        return Optional.of(span(source, start, end, Math.min(similarity, FUZZY_MAX_CONFIDENCE), Method.FUZZY));
    }

    private static Alignment span(NormalizedText source, int start, int end, double confidence, Method method) {
        return new Alignment(source.originalStart(start), source.originalEnd(end), confidence, method);
    }

}
