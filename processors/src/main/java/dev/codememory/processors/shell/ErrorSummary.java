package dev.codememory.processors.shell;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.text.TextCuts;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What failed, written from the structure of an error rather than quoted from it: a
 * memory's title and a summary line are shown to Claude as ours, so they never carry a
 * free-text sentence of tool output (which anyone who controls a web page, a log line or
 * a test fixture can write). Stateless and thread-safe.
 *
 * <p>
 * From the first meaningful error line ({@link ErrorLines#firstMeaningful}) and the
 * tool's error field, it keeps:
 * <ul>
 * <li>the error's <b>class or code</b>: an exception or error type ({@code KeyError},
 * {@code NullPointerException}), a compiler or linter code ({@code E0308},
 * {@code TS2304}, {@code SC2086}), a Node error code ({@code ERR_MODULE_NOT_FOUND}) or an
 * errno name ({@code ENOENT});</li>
 * <li>the <b>exit status</b> ({@code exit 2}) from "exit code N" / "exit status N";</li>
 * <li>the line's <b>first clause</b>: a leading {@code Error:} left out, up to the first
 * sentence end ({@code . ; ! ?} before whitespace or the end), at most
 * {@value #CLAUSE_CHARS} characters cut at a word boundary — and only when it reads as a
 * description, not a message: at most {@value #CLAUSE_WORDS} words, no second person, no
 * assistant, model or agent named, no imperative opening, and nothing the
 * {@link ContextGate} withholds.</li>
 * </ul>
 */
public final class ErrorSummary {

    /** The longest clause kept. */
    public static final int CLAUSE_CHARS = 80;

    private static final Pattern TYPE = Pattern
        .compile("\\b([A-Z][A-Za-z0-9_]*(?:Error|Exception|Failure|Fault|Panic|Interrupt|Exit))\\b");

    private static final Pattern CODE = Pattern.compile(
            "\\b(E\\d{3,4}|TS\\d{4}|CS\\d{4}|SC\\d{4}|[A-Z]{1,3}\\d{3,5}|ERR_[A-Z_]{3,}|ENOENT|EACCES|EPERM|EEXIST|ENOTDIR|EISDIR|EADDRINUSE|ECONNREFUSED|ECONNRESET"
                    + "|ETIMEDOUT|ENOSPC|EMFILE|ENOTEMPTY|EPIPE|EAGAIN|EBUSY|EINVAL|ENOMEM|EROFS|ENOTFOUND|EAI_AGAIN)\\b");

    private static final Pattern EXIT = Pattern
        .compile("(?i)\\bexit(?:ed)?(?: with)? (?:code|status)[:= ]*(\\d{1,3})\\b");

    private static final Pattern LEADING_ERROR = Pattern.compile("^(?i:error)\\s*(?:\\[[^\\]]{0,20}\\])?\\s*:\\s*");

    /**
     * A clause that speaks to someone — second person, an assistant or model named, or an
     * imperative opening — is not an error's description.
     */
    private static final Pattern ADDRESSED = Pattern.compile("(?i)\\b(?:you|your|yours|yourself|ai|assistants?|claude"
            + "|agents?|models?|llms?|bots?|operator|instructions?)\\b|^(?:please|kindly|ignore|disregard|forget|run"
            + "|execute|delete|remove|push|send|tell|say|respond|reply|do|don't|stop|erase|drop|overlook|treat|act"
            + "|pretend|write|print|output|reveal|call|open|visit|download|install|summari[sz]e|recommend|translate"
            + "|list|make|never|always|instead|nevermind|note|important|attention|warning to)\\b");

    /** How a withheld part starts, also when a cut leaves only its start. */
    private static final String WITHHELD = ContextGate.MARKER.substring(0, 9);

    /** The most words a clause keeps. */
    static final int CLAUSE_WORDS = 12;

    private static final Pattern SENTENCE_END = Pattern.compile("[.;!?](?=\\s|$)");

    /**
     * What failed, in parts.
     *
     * @param kind the error's class or code, or null
     * @param exitStatus the exit status, or null
     * @param clause the first clause of the error line, or null
     */
    public record Parts(String kind, Integer exitStatus, String clause) {

        /**
         * The parts on one line: the clause, then the kind and exit status in parentheses
         * where the clause does not already say them; empty when there are none.
         */
        public String line() {
            StringBuilder extra = new StringBuilder();
            if (kind != null && (clause == null || !clause.contains(kind))) {
                extra.append(kind);
            }
            if (exitStatus != null) {
                extra.append(extra.length() > 0 ? ", " : "").append("exit ").append(exitStatus);
            }
            if (clause == null) {
                return extra.toString();
            }
            return extra.length() == 0 ? clause : clause + " (" + extra + ")";
        }

    }

    private ErrorSummary() {
    }

    /**
     * @param errorLine the first meaningful error line, or null
     * @param errorField the tool's own error text (Claude Code's {@code error}, e.g.
     * {@code Exit code 2}), or null
     */
    public static Parts of(String errorLine, String errorField) {
        String line = errorLine == null ? "" : errorLine.strip();
        String kind = first(TYPE, line);
        if (kind == null) {
            kind = first(CODE, line);
        }
        String exit = first(EXIT, errorField == null ? "" : TextCuts.shorten(errorField, 400));
        if (exit == null) {
            exit = first(EXIT, line);
        }
        return new Parts(kind, exit == null ? null : Integer.valueOf(exit), clause(line));
    }

    /**
     * The first clause of {@code line}, from the line gated whole, as far as a cut to
     * {@value #CLAUSE_CHARS} characters can reach ({@link ContextGate#reach}): a clause
     * cut from an instruction would no longer look like one, and a minified line of a
     * megabyte costs no more than one that fits.
     */
    private static String clause(String line) {
        String text = LEADING_ERROR.matcher(ContextGate.pass(ContextGate.reach(line, CLAUSE_CHARS)).text())
            .replaceFirst("");
        Matcher end = SENTENCE_END.matcher(text);
        if (end.find()) {
            text = text.substring(0, end.start());
        }
        text = TextCuts.shorten(text.strip(), CLAUSE_CHARS);
        if (text.isBlank() || text.split("\\s+").length > CLAUSE_WORDS || ADDRESSED.matcher(text).find()
                || text.contains(WITHHELD) || ContextGate.pass(text).withheld() > 0) {
            return null;
        }
        return text;
    }

    private static String first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? m.group(1) : null;
    }

}
