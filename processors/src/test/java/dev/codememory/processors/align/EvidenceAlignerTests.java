package dev.codememory.processors.align;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.text.EditDistance;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EvidenceAlignerTests {

    private static final String CACHE = "The cache is flushed every night at 02:00 UTC.";

    private static final String UPLOADS = "Use the\n   staging  bucket\tfor uploads.";

    private static final String RELEASE = "Before the release we must rotate the database credentials and restart workers.";

    private static final String DEPLOY_KO = "배포 대상은 프로덕션 서버이고 내일 오전에 진행합니다";

    private static final String FENCED_JAVA = "Here is the fix:\n```java\npublic int size() {\n"
            + "    if (items == null) {\n        return 0;\n    }\n    return items.size();\n}\n```\nDone.";

    private static final String WINDOWS_PATH = "Set the path:\n```java\nString path = \"C:\\\\Users\\\\dev\\\\cache\";\n```";

    private static final String ROCKET = "Status: 🚀 launch the rocket at dawn, then 🎉 celebrate.";

    private final EvidenceAligner aligner = new EvidenceAligner();

    static Stream<Arguments> quotes() {
        return Stream.of(
                // exact
                row("exact quote", CACHE, "flushed every night", new Alignment(13, 32, 1.0, Method.EXACT),
                        "flushed every night"),
                row("short exact quote", CACHE, "cache", new Alignment(4, 9, 1.0, Method.EXACT), "cache"),
                row("first of repeated exact quotes", "retry later. retry later. retry later.", "retry later",
                        new Alignment(0, 11, 1.0, Method.EXACT), "retry later"),
                row("exact occurrence beats an earlier whitespace variant", "retry\nlater or retry later",
                        "retry later", new Alignment(15, 26, 1.0, Method.EXACT), "retry later"),
                row("korean exact", DEPLOY_KO, "프로덕션 서버이고", new Alignment(7, 16, 1.0, Method.EXACT), "프로덕션 서버이고"),
                row("emoji exact", ROCKET, "🎉 celebrate", new Alignment(43, 55, 1.0, Method.EXACT), "🎉 celebrate"),
                row("backslashes exact", WINDOWS_PATH, "\"C:\\\\Users\\\\dev\\\\cache\"",
                        new Alignment(36, 59, 1.0, Method.EXACT), "\"C:\\\\Users\\\\dev\\\\cache\""),

                // whitespace
                row("source whitespace collapsed", UPLOADS, "the staging bucket for",
                        new Alignment(4, 30, 0.95, Method.WHITESPACE), "the\n   staging  bucket\tfor"),
                row("quote newlines and padding ignored", CACHE, "  flushed\nevery   night \n",
                        new Alignment(13, 32, 0.95, Method.WHITESPACE), "flushed every night"),
                row("no-break spaces are whitespace", "price:\u00A0\u00A010 EUR per seat", "price: 10 EUR",
                        new Alignment(0, 14, 0.95, Method.WHITESPACE), "price:\u00A0\u00A010 EUR"),
                row("short quote across a line break", CACHE, "every\nnight",
                        new Alignment(21, 32, 0.95, Method.WHITESPACE), "every night"),
                row("first of repeated whitespace variants", "then retry\n later, and again retry\tlater.",
                        "retry later", new Alignment(5, 17, 0.95, Method.WHITESPACE), "retry\n later"),
                row("korean across a line break", DEPLOY_KO, "프로덕션\n  서버이고 내일",
                        new Alignment(7, 19, 0.95, Method.WHITESPACE), "프로덕션 서버이고 내일"),
                row("java with other indentation", FENCED_JAVA, "if (items == null) {\n  return 0;\n}",
                        new Alignment(49, 93, 0.95, Method.WHITESPACE),
                        "if (items == null) {\n        return 0;\n    }"),
                row("quote longer than the source", "deploy  now", "deploy \n\n now",
                        new Alignment(0, 11, 0.95, Method.WHITESPACE), "deploy  now"),

                // fuzzy
                row("one typo, confidence capped", RELEASE, "rotate the databse credentials",
                        new Alignment(27, 58, 0.94, Method.FUZZY), "rotate the database credentials"),
                row("missing word", RELEASE, "rotate database credentials and restart workers",
                        new Alignment(27, 78, 1 - 4.0 / 51, Method.FUZZY),
                        "rotate the database credentials and restart workers"),
                row("first of repeated fuzzy matches",
                        "rotate the database credentials now; later rotate the database credentials again",
                        "rotate the databse credentials", new Alignment(0, 31, 0.94, Method.FUZZY),
                        "rotate the database credentials"),
                row("korean one syllable off", DEPLOY_KO, "배포 대상은 프로덕션 서버이며 내일 오전에 진행합니다",
                        new Alignment(0, 29, 0.94, Method.FUZZY), DEPLOY_KO),
                row("korean two syllables off", DEPLOY_KO, "배포 대상은 프로덕션 서버이며 내일 오후에 진행합니다",
                        new Alignment(0, 29, 1 - 2.0 / 29, Method.FUZZY), DEPLOY_KO),
                row("java typo with other indentation", FENCED_JAVA, "if (items == null) {\n\tretrun 0;\n}",
                        new Alignment(49, 93, 1 - 2.0 / 32, Method.FUZZY),
                        "if (items == null) {\n        return 0;\n    }"),
                row("backslashes with a typo", WINDOWS_PATH, "String path = \"C:\\\\Users\\\\dev\\\\cach\";",
                        new Alignment(22, 60, 0.94, Method.FUZZY), "String path = \"C:\\\\Users\\\\dev\\\\cache\";"),
                row("other emoji keeps the whole pair", "Reply 🈁 means we are here already, then leave.",
                        "😁 means we are here already", new Alignment(6, 34, 0.94, Method.FUZZY),
                        "🈁 means we are here already"),
                row("lone surrogate in quote never splits a pair", ROCKET, "\uDE80 launch the rocket at dawn",
                        new Alignment(8, 36, 0.94, Method.FUZZY), "🚀 launch the rocket at dawn"),

                // nowhere
                row("absent quote", CACHE, "the migration was rolled back twice", null, null),
                row("paraphrase below threshold", "We agreed to postpone the launch until the audit is finished.",
                        "We decided to delay the launch until after the audit", null, null),
                row("short quote with a typo", CACHE, "flushd", null, null),
                row("eleven characters with a typo", CACHE, "eveyr night", null, null),
                row("quote longer than the source beyond whitespace", "rotate the database credentials",
                        "rotate the database credentials today", null, null));
    }

    private static Arguments row(String name, String source, String quote, Alignment expected, String spanText) {
        return Arguments.of(name, source, quote, expected, spanText);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("quotes")
    void alignsQuoteToExpectedSpan(String name, String source, String quote, Alignment expected, String spanText) {
        Optional<Alignment> actual = aligner.align(source, quote);

        assertThat(actual).isEqualTo(Optional.ofNullable(expected));
        actual.ifPresent(alignment -> {
            assertThat(source.substring(alignment.start(), alignment.end())).isEqualTo(spanText);
            assertInvariants(source, quote, alignment);
        });
    }

    @Test
    void nullOrBlankInputAlignsNowhere() {
        assertThat(aligner.align(null, "anything at all")).isEmpty();
        assertThat(aligner.align(CACHE, null)).isEmpty();
        assertThat(aligner.align(CACHE, "")).isEmpty();
        assertThat(aligner.align(CACHE, " \n\t\u00A0\u3000 ")).isEmpty();
        assertThat(aligner.align("", "cache")).isEmpty();
        assertThat(aligner.align("a \u00A0 b", "\u00A0")).isEmpty();
    }

    @Test
    void findsLongQuoteWithTyposNearEndOfLargeSource() {
        String paragraph = "Finally, the on-call engineer rotated the signing keys for the payments service, "
                + "invalidated every session token issued before the incident, re-ran the reconciliation job "
                + "for the affected merchants, and confirmed with the finance team that no settlement batch had "
                + "been released with the compromised key. The post-mortem is scheduled for Thursday and the "
                + "action items are tracked in the reliability board under the incident number.";
        StringBuilder source = new StringBuilder();
        for (int i = 0; source.length() < 200_000; i++) {
            source.append("Entry ")
                .append(i)
                .append(": the worker processed batch ")
                .append(i * 7)
                .append(" without errors.\n");
        }
        source.append(paragraph).append("\nEntry last: done.\n");
        String text = source.toString();
        String quote = paragraph.replace("signing keys", "signing  keys\n")
            .replace("reconciliation", "reconcilation")
            .replace("finance team", "finance teem")
            .replace("Thursday", "Thursdy");
        int start = text.indexOf(paragraph);

        Optional<Alignment> alignment = aligner.align(text, quote);

        assertThat(paragraph.length()).isEqualTo(430);
        assertThat(text.length()).isGreaterThan(200_000);
        assertThat(text).doesNotContain(quote);
        assertThat(alignment).contains(new Alignment(start, start + paragraph.length(), 0.94, Method.FUZZY));
        assertInvariants(text, quote, alignment.orElseThrow());
    }

    @Test
    void findsExactQuoteNearEndOfLargeSource() {
        StringBuilder source = new StringBuilder();
        while (source.length() < 200_000) {
            source.append("the worker processed the batch without errors. ");
        }
        int start = source.length();
        source.append("the worker processed the batch with one error. ");
        String text = source.toString();

        assertThat(aligner.align(text, "the batch with one error"))
            .contains(new Alignment(start + 21, start + 45, 1.0, Method.EXACT));
    }

    @Test
    void repetitiveLargeSourceAlignsFirstNearMatch() {
        String sentence = "the worker processed the batch without errors. ";
        String text = sentence.repeat(4_300);
        String quote = "the worker processed the batch withuot errors.";

        Optional<Alignment> alignment = aligner.align(text, quote);

        assertThat(text.length()).isGreaterThan(200_000);
        assertThat(alignment).contains(new Alignment(0, 46, 0.94, Method.FUZZY));
        assertInvariants(text, quote, alignment.orElseThrow());
    }

    @Test
    void unrelatedLargeSourceAlignsNowhere() {
        Random random = new Random(7);
        StringBuilder source = new StringBuilder();
        while (source.length() < 200_000) {
            source.append((char) ('a' + random.nextInt(26)));
            if (random.nextInt(6) == 0) {
                source.append(' ');
            }
        }
        String quote = "the on-call engineer rotated the signing keys for the payments service ".repeat(7);

        assertThat(quote.length()).isEqualTo(497);
        assertThat(aligner.align(source.toString(), quote)).isEmpty();
    }

    @Test
    void fuzzySearchFindsTheSameWindowAsExhaustiveSearch() {
        Random random = new Random(42);
        for (int round = 0; round < 600; round++) {
            int alphabet = List.of(2, 4, 26).get(round % 3);
            int[] text = randomCodePoints(random, random.nextInt(90), alphabet);
            int[] pattern = round % 2 == 0 || text.length < 12
                    ? randomCodePoints(random, 12 + random.nextInt(14), alphabet)
                    : mutatedSlice(random, text, alphabet);

            FuzzySearch.Window expected = exhaustiveBest(pattern, text, EvidenceAligner.FUZZY_THRESHOLD);
            FuzzySearch.Window actual = FuzzySearch.best(pattern, text, EvidenceAligner.FUZZY_THRESHOLD);

            assertThat(actual).as("round %d", round).isEqualTo(expected);
        }
    }

    @Test
    void alignerIsSafeToShareAcrossThreads() {
        List<String> quotes = List.of("rotate the databse credentials", "flushed every night",
                "배포 대상은 프로덕션 서버이며 내일 오전에 진행합니다", "if (items == null) {\n\tretrun 0;\n}");
        List<String> sources = List.of(RELEASE, CACHE, DEPLOY_KO, FENCED_JAVA);
        List<Optional<Alignment>> sequential = IntStream.range(0, 4)
            .mapToObj(i -> aligner.align(sources.get(i), quotes.get(i)))
            .toList();

        List<Optional<Alignment>> parallel = IntStream.range(0, 4_000)
            .parallel()
            .mapToObj(i -> aligner.align(sources.get(i % 4), quotes.get(i % 4)))
            .toList();

        assertThat(sequential).allMatch(Optional::isPresent);
        for (int i = 0; i < parallel.size(); i++) {
            assertThat(parallel.get(i)).isEqualTo(sequential.get(i % 4));
        }
    }

    @Test
    void alignmentRejectsImpossibleValues() {
        assertThatThrownBy(() -> new Alignment(-1, 3, 1.0, Method.EXACT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(3, 3, 1.0, Method.EXACT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(0, 3, 0.95, Method.EXACT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(0, 3, 1.0, Method.WHITESPACE))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(0, 3, 0.95, Method.FUZZY)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(0, 3, Double.NaN, Method.FUZZY))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Alignment(0, 3, 0.9, null)).isInstanceOf(NullPointerException.class);
        assertThat(new Alignment(2, 5, 0.9, Method.FUZZY).length()).isEqualTo(3);
    }

    // ---- helpers ----

    /**
     * Holds for every alignment: in bounds, no split surrogate pair, and the span agrees
     * with its method.
     */
    private static void assertInvariants(String source, String quote, Alignment alignment) {
        assertThat(alignment.start()).isBetween(0, source.length() - 1);
        assertThat(alignment.end()).isBetween(alignment.start() + 1, source.length());
        assertThat(splitsSurrogatePair(source, alignment.start())).isFalse();
        assertThat(splitsSurrogatePair(source, alignment.end())).isFalse();
        String span = source.substring(alignment.start(), alignment.end());
        switch (alignment.method()) {
            case EXACT -> {
                assertThat(span).isEqualTo(quote);
                assertThat(alignment.confidence()).isEqualTo(1.0);
            }
            case WHITESPACE -> {
                assertThat(collapse(span)).isEqualTo(collapse(quote));
                assertThat(span).isEqualTo(span.strip());
                assertThat(alignment.confidence()).isEqualTo(0.95);
            }
            case FUZZY -> {
                assertThat(span).isEqualTo(collapseEnds(span));
                assertThat(alignment.confidence()).isBetween(0.85, 0.94);
            }
        }
    }

    private static boolean splitsSurrogatePair(String text, int index) {
        return index > 0 && index < text.length() && Character.isHighSurrogate(text.charAt(index - 1))
                && Character.isLowSurrogate(text.charAt(index));
    }

    private static String collapse(String text) {
        return text.replaceAll("[\\s\\p{Z}\\u0085\\u001C-\\u001F]+", " ").strip();
    }

    private static String collapseEnds(String text) {
        return text.replaceAll("^[\\s\\p{Z}]+|[\\s\\p{Z}]+$", "");
    }

    private static int[] randomCodePoints(Random random, int length, int alphabet) {
        int[] codePoints = new int[length];
        for (int i = 0; i < length; i++) {
            codePoints[i] = 'a' + random.nextInt(alphabet);
        }
        return codePoints;
    }

    /** A slice of the text with a few random substitutions, insertions and deletions. */
    private static int[] mutatedSlice(Random random, int[] text, int alphabet) {
        int length = Math.min(text.length, 12 + random.nextInt(20));
        int from = random.nextInt(text.length - length + 1);
        StringBuilder slice = new StringBuilder();
        for (int i = from; i < from + length; i++) {
            slice.appendCodePoint(text[i]);
        }
        for (int edits = random.nextInt(5); edits > 0; edits--) {
            int at = random.nextInt(slice.length());
            char letter = (char) ('a' + random.nextInt(alphabet));
            switch (random.nextInt(3)) {
                case 0 -> slice.setCharAt(at, letter);
                case 1 -> slice.insert(at, letter);
                default -> {
                    if (slice.length() > 12) {
                        slice.deleteCharAt(at);
                    }
                }
            }
        }
        return slice.codePoints().toArray();
    }

    /**
     * Every window, by brute force: per end, the closest start (earliest on ties); then
     * the best similarity, earliest start, length nearest the pattern's, shorter.
     */
    private static FuzzySearch.Window exhaustiveBest(int[] pattern, int[] text, double threshold) {
        int m = pattern.length;
        FuzzySearch.Window best = null;
        double bestSimilarity = -1;
        for (int end = 1; end <= text.length; end++) {
            int closestStart = -1;
            int closestDistance = Integer.MAX_VALUE;
            for (int start = 0; start < end; start++) {
                int distance = EditDistance.levenshtein(pattern, text, start, end);
                if (distance < closestDistance) {
                    closestDistance = distance;
                    closestStart = start;
                }
            }
            double similarity = 1.0 - (double) closestDistance / Math.max(m, end - closestStart);
            if (similarity < threshold) {
                continue;
            }
            FuzzySearch.Window candidate = new FuzzySearch.Window(closestStart, end, closestDistance);
            if (best == null || similarity > bestSimilarity
                    || (similarity == bestSimilarity
                            && (candidate.start() < best.start() || candidate.start() == best.start()
                                    && (Math.abs(candidate.length() - m) < Math.abs(best.length() - m)
                                            || Math.abs(candidate.length() - m) == Math.abs(best.length() - m)
                                                    && candidate.length() < best.length())))) {
                best = candidate;
                bestSimilarity = similarity;
            }
        }
        return best;
    }

}
