package dev.codememory.processors.extract;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.shell.ErrorLines;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Decisions from plans the user approved. In plan mode Claude proposes a plan with
 * {@code ExitPlanMode} ({@code tool_input.plan}, Markdown); the user approving it lets
 * the tool call through, so a call that neither failed nor was refused is an approved
 * plan: a DECISION. Title: the plan's first heading, else its first non-blank line,
 * without Markdown markers, at most 100 characters. Body: {@code "Approved plan:"} and
 * the plan. Quotes: the plan's first line as it appears in the input text, and an excerpt
 * of the tool's answer when there is one.
 */
final class Plans {

    static final String TOOL = "ExitPlanMode";
    static final int TITLE_MAX = 100;

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Plans() {
    }

    static void extract(List<Observation> observations, CandidateSink sink) {
        for (Observation o : observations) {
            if (!TOOL.equals(o.tool()) || o.failed() || o.inputText() == null || ErrorLines.refusal(o.outputText())) {
                continue;
            }
            String plan = plan(o.inputText());
            if (plan == null || plan.isBlank()) {
                continue;
            }
            String firstLine = firstLine(plan);
            String escaped = TextCuts.jsonEscape(firstLine);
            String located = o.inputText().contains(escaped) ? escaped
                    : o.inputText().contains(firstLine) ? firstLine : null;
            if (located == null) {
                continue;
            }
            List<Quote> quotes = new ArrayList<>();
            String lineQuote = located.length() <= TextCuts.EXCERPT_MAX ? located : TextCuts.excerpt(located, true);
            quotes.add(new Quote(o.observationId(), SourceText.TOOL_INPUT, lineQuote));
            String answer = TextCuts.excerpt(o.outputText(), true);
            if (answer != null) {
                quotes.add(new Quote(o.observationId(), SourceText.TOOL_RESPONSE, answer));
            }
            String title = ContextGate.shorten(firstLine.replaceAll("^#+\\s*", "").replaceAll("[*_`]", "").strip(),
                    TITLE_MAX);
            if (!title.isEmpty()) {
                sink.add(CandidateKind.DECISION, o.ts(), title, "Approved plan:\n" + plan.strip(), null, quotes);
            }
        }
    }

    private static String plan(String inputText) {
        try {
            JsonNode input = MAPPER.readTree(inputText);
            return input == null ? null : input.path("plan").asString(null);
        }
        catch (JacksonException e) {
            return null;
        }
    }

    /** The first heading line, else the first non-blank line, stripped. */
    private static String firstLine(String plan) {
        for (String line : plan.split("\\R")) {
            if (line.strip().startsWith("#") && line.strip().replaceAll("^#+", "").strip().length() > 2) {
                return line.strip();
            }
        }
        return TextCuts.firstLine(plan);
    }

}
