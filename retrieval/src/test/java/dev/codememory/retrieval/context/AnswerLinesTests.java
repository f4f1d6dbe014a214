package dev.codememory.retrieval.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.capture.guard.Provenance;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.retrieval.ranking.PastQuestion;
import dev.codememory.retrieval.ranking.QueryTokenizer;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AnswerLinesTests {

    private static final LocalDateTime TIME = LocalDateTime.of(2026, 10, 2, 9, 30);

    private static final Provenance REPLY = Provenance.of(SourceText.REPLY, null);

    private static ContextHit hit(String id, double score) {
        return new ContextHit("mem:" + id, id, "exchange", "memory " + id, score, TIME, "s1");
    }

    /** Every term of the question weighs the same. */
    private static Map<String, Double> weights(String question) {
        Map<String, Double> w = new LinkedHashMap<>();
        QueryTokenizer.tokenize(question).forEach(t -> w.put(t, 1.0));
        return w;
    }

    private static List<AnswerLines.Line> answer(String question, List<ContextHit> hits,
            AnswerLines.Source... sources) {
        return AnswerLines.of(PastQuestion.of(question).orElseThrow(), weights(question), hits, List.of(sources));
    }

    @Test
    void theSentenceWithTheWantedValueIsTheAnswerAndItsNeighboursWordsCount() {
        String reply = "I looked at the collector service configuration.\n"
                + "The collector listens on port 4317 for OTLP over gRPC.\n" + "Restart it after changing the file.";
        List<AnswerLines.Line> lines = answer("which port does the collector listen on?", List.of(hit("a", 0.6)),
                new AnswerLines.Source("a", REPLY, reply, false));
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0).text()).startsWith("The collector listens on port 4317");
        assertThat(lines.get(0).provenance()).isEqualTo(REPLY);
    }

    @Test
    void aWhyIsAnsweredByTheReasonClauseNotByTheSentenceThatRepeatsTheQuestion() {
        String reply = "We added the rate limiter to the billing client.\n\n"
                + "It was added because the billing API returns HTTP 429 above 10 requests a second.";
        List<AnswerLines.Line> lines = answer("why did we add the rate limiter to the billing client?",
                List.of(hit("a", 0.6)), new AnswerLines.Source("a", REPLY, reply, false));
        assertThat(lines).extracting(AnswerLines.Line::text)
            .anyMatch(t -> t.contains("because the billing API returns HTTP 429"));
    }

    @Test
    void aQuestionIsNeverItsOwnAnswerAndNothingIsReturnedWhenNothingAnswers() {
        Provenance prompt = Provenance.of(SourceText.PROMPT, null);
        assertThat(answer("why did we add the rate limiter?", List.of(hit("a", 0.6)),
                new AnswerLines.Source("a", prompt, "why did we add the rate limiter?", false)))
            .isEmpty();
        assertThat(answer("which port does the collector listen on?", List.of(hit("a", 0.6)),
                new AnswerLines.Source("a", REPLY, "The viewer now has a dark theme and a search box.", false)))
            .isEmpty();
        assertThat(answer("which port does the collector listen on?", List.of(),
                new AnswerLines.Source("a", REPLY, "The collector listens on port 4317.", false)))
            .isEmpty();
    }

    @Test
    void aToolCallIsReadAsItsStringValuesAndShownWhole() {
        Provenance call = Provenance.of(SourceText.TOOL_INPUT, "Bash");
        String input = "{\"command\":\"python3 -m venv venv && venv/bin/pip install -r requirements.txt\","
                + "\"description\":\"Create a virtual environment and install the collector dependencies\"}";
        List<AnswerLines.Line> lines = answer("how did we install the collector dependencies?", List.of(hit("a", 0.6)),
                new AnswerLines.Source("a", call, input, true));
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0).text())
            .isEqualTo("python3 -m venv venv && venv/bin/pip install -r requirements.txt — Create a virtual environment"
                    + " and install the collector dependencies");
    }

    @Test
    void oneTextIsShownOnceAndAtMostTwoLinesOfAMemoryAtMostFourInAll() {
        String reply = "The collector listens on port 4317.";
        AnswerLines.Source fromReply = new AnswerLines.Source("a", REPLY, reply, false);
        AnswerLines.Source recorded = new AnswerLines.Source("a", null, "Collector port\n" + reply, false);
        List<AnswerLines.Line> once = answer("which port does the collector listen on?", List.of(hit("a", 0.6)),
                fromReply, recorded);
        assertThat(once).extracting(AnswerLines.Line::text).containsExactly("The collector listens on port 4317.");
        assertThat(once.get(0).provenance()).as("the source's words before the memory's rendering of them")
            .isEqualTo(REPLY);

        String many = String.join("\n", "The collector listens on port 4317.", "Nothing else.",
                "The collector used port 4318 before.", "Nothing more.", "The collector port 9000 is for metrics.");
        List<ContextHit> hits = List.of(hit("a", 0.6), hit("b", 0.5), hit("c", 0.4));
        List<AnswerLines.Line> lines = answer("which port does the collector listen on?", hits,
                new AnswerLines.Source("a", REPLY, many, false), new AnswerLines.Source("b", REPLY, many, false),
                new AnswerLines.Source("c", REPLY, many.replace("collector", "the collector service"), false));
        assertThat(lines).hasSizeLessThanOrEqualTo(AnswerLines.MAX_LINES);
        assertThat(lines.stream().filter(l -> l.hit().memoryId().equals("a")).count())
            .isLessThanOrEqualTo(AnswerLines.PER_MEMORY);
    }

    @Test
    void aLineThatIntroducesAListCarriesIt() {
        String reply = "Before the connector works it still needs:\n- an application module and supervision tree\n"
                + "- an MQTT communication layer\n\nEverything else is in place.";
        List<AnswerLines.Line> lines = answer("what does the connector still need before it works?",
                List.of(hit("a", 0.6)), new AnswerLines.Source("a", REPLY, reply, false));
        assertThat(lines.get(0).text()).isEqualTo("Before the connector works it still needs: an application module"
                + " and supervision tree an MQTT communication layer Everything else is in place.");
    }

    @Test
    void theCitationsARecordedTextHoldsAreNotPartOfAnAnswer() {
        String summary = "Decided: use PostgreSQL for the invoices [mem:h4Ch37]\n[mem:h4Ch37]";
        List<AnswerLines.Line> lines = answer("which database do we use for invoices", List.of(hit("a", 0.6)),
                new AnswerLines.Source("a", null, summary, false));
        assertThat(lines).extracting(AnswerLines.Line::text)
            .containsExactly("Decided: use PostgreSQL for the invoices");
    }

    @Test
    void aTextIsCutIntoSentencesAtAnEndFollowedByAStart() {
        assertThat(AnswerLines.sentences("- Moved the port to 5001. The old one clashed.\n\n"
                + "1. Ran `mvn test`!  \"All green\" [mem:ab-1] now. e.g. this stays\n```\ncode"))
            .containsExactly("Moved the port to 5001.", "The old one clashed.", "Ran `mvn test`!",
                    "\"All green\" now. e.g. this stays", "code");
    }

    /**
     * The sentences as they were first cut, with regular expressions: the hand-written
     * scan must cut every line the same way.
     */
    @Test
    void cuttingByHandGivesTheSentencesTheExpressionsGave() {
        Pattern end = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z`\"'(\\[*])");
        Pattern citation = Pattern.compile("\\s*\\[mem:[A-Za-z0-9_-]+]");
        Pattern listMarker = Pattern.compile("^(?:(?:[-*+•>]|\\d{1,3}[.)]|#{1,6})\\s+(?:\\[[ xX]]\\s+)?)+");
        String[] pieces = { "a", "B", ".", "!", "?", " ", "  ", "\t", "\u000B", "\u2003", "`", "\"", "(", "[", "*",
                "[mem:x1]", " [mem:b-2]", "[mem:", "- ", "\n", "\r\n", "Z" };
        Random random = new Random(41);
        for (int n = 0; n < 100_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(16);
            for (int i = 0; i < length; i++) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            List<String> expected = new java.util.ArrayList<>();
            for (String line : text.toString().split("\\R")) {
                String l = listMarker.matcher(line.strip()).replaceFirst("").strip();
                if (l.isEmpty() || l.startsWith("```")) {
                    continue;
                }
                for (String s : end.split(l)) {
                    String t = citation.matcher(s).replaceAll("").replaceAll("\\s+", " ").strip();
                    if (!t.isEmpty()) {
                        expected.add(t);
                    }
                }
            }
            assertThat(AnswerLines.sentences(text.toString())).as("%s", text).isEqualTo(expected);
        }
    }

}
