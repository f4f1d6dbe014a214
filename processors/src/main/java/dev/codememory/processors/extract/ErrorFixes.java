package dev.codememory.processors.extract;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.project.ProjectResolver;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.shell.CommandKey;
import dev.codememory.processors.shell.ErrorLines;
import dev.codememory.processors.shell.ErrorSummary;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Error → fix episodes: the memory that saves the most time next week. A Bash call that
 * failed, files edited after it, and a later successful run of the same command
 * ({@link CommandKey#normalize}) in the same session make one INSIGHT. A refused or
 * interrupted call is neither the failure nor the pass ({@link ErrorLines#refusal}); a
 * command that fails again before it passes keeps its first failure, and every file
 * edited between that failure and the pass counts; a command that passes again without an
 * edit in between was not fixed by the session and gives nothing.
 *
 * <p>
 * Title, written from structure ({@link ErrorSummary}), never a sentence of the output:
 * {@code Fixed `<command>`: <first clause of the error line> (<error class or code>, exit N)}
 * (command cut to {@value #COMMAND_CHARS} characters; only the parts there are; a clause
 * the context gate would withhold is left out), then {@code  by changing <file>} (the
 * first file changed, {@code and N more}). Body: the command, the same description of the
 * failure, the files changed (relative to the project) and when it passed. Quotes, each
 * as it appears in its source: the failing command (input), the error line (output of the
 * failure, shown only as a labelled quotation; the line is gated whole before it is cut,
 * and the quote ends before any part the gate withholds that the cut would split, or is
 * left out when nothing is left), the passing command (input of the pass).
 */
final class ErrorFixes {

    static final int COMMAND_CHARS = 60;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

    private ErrorFixes() {
    }

    /** An unresolved failure of one command and the files edited since. */
    private record Open(Observation failure, Set<String> edited) {
    }

    static void extract(List<Observation> observations, CandidateSink sink) {
        Map<String, Open> open = new LinkedHashMap<>();
        for (Observation o : observations) {
            if (WorkDone.EDIT_TOOLS.contains(o.tool()) && !o.failed()) {
                for (Open failure : open.values()) {
                    o.files().forEach(f -> failure.edited().add(ProjectResolver.relative(f, o.project())));
                }
                continue;
            }
            if (!"Bash".equals(o.tool()) || o.command() == null || ErrorLines.refusal(o.outputText())) {
                continue;
            }
            String key = CommandKey.normalize(o.command());
            if (key.isEmpty()) {
                continue;
            }
            if (o.failed()) {
                open.putIfAbsent(key, new Open(o, new LinkedHashSet<>()));
            }
            else {
                Open failure = open.remove(key);
                if (failure != null && !failure.edited().isEmpty()) {
                    episode(failure, o, key, sink);
                }
            }
        }
    }

    private static void episode(Open failure, Observation pass, String key, CandidateSink sink) {
        Observation failed = failure.failure();
        Quote failedCommand = commandQuote(failed);
        Quote passedCommand = commandQuote(pass);
        String output = failed.outputText();
        int[] line = ErrorLines.firstMeaningfulSpan(output);
        if (failedCommand == null || passedCommand == null || line == null || line[0] == line[1]) {
            return;
        }
        String what = ErrorSummary.of(readable(output.substring(line[0], line[1])), failed.errorText()).line();
        List<String> files = new ArrayList<>(failure.edited());
        String changed = files.get(0) + (files.size() > 1 ? " and " + (files.size() - 1) + " more" : "");
        String title = "Fixed `" + ContextGate.shorten(key, COMMAND_CHARS) + "`" + (what.isEmpty() ? "" : ": " + what)
                + " by changing " + changed;
        String body = "`" + key + "` failed" + (what.isEmpty() ? "" : ": " + what) + "\nChanged: "
                + String.join(", ", files) + "\nPassed again at " + TIME.format(pass.ts()) + " (failed at "
                + TIME.format(failed.ts()) + ").";
        List<Quote> quotes = new ArrayList<>(List.of(failedCommand));
        int[] quoted = ContextGate.quotable(output, line[0], ErrorLines.cutEnd(output, line[0], line[1]));
        if (quoted != null) {
            quotes.add(new Quote(failed.observationId(), SourceText.TOOL_RESPONSE,
                    output.substring(quoted[0], quoted[1])));
        }
        quotes.add(passedCommand);
        sink.add(CandidateKind.INSIGHT, pass.ts(), title, body, null, quotes);
    }

    /**
     * The command as it appears in the call's input text (raw, else JSON-escaped), as a
     * quote.
     */
    private static Quote commandQuote(Observation o) {
        if (o.inputText() == null) {
            return null;
        }
        for (String form : new String[] { o.command(), TextCuts.jsonEscape(o.command()) }) {
            if (!form.isBlank() && o.inputText().contains(form)) {
                String quote = form.length() <= TextCuts.EXCERPT_MAX ? form.strip() : TextCuts.excerpt(form, true);
                return quote == null ? null : new Quote(o.observationId(), SourceText.TOOL_INPUT, quote);
            }
        }
        return null;
    }

    /** An error line as a person reads it: JSON escapes of the output text undone. */
    private static String readable(String line) {
        return line.replace("\\\"", "\"").replace("\\t", " ").replace("\\\\", "\\").strip();
    }

}
