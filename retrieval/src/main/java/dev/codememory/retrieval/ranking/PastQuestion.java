package dev.codememory.retrieval.ranking;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A prompt that asks about the project's work rather than asking for new work: "why did
 * we drop the Dockerfile?", "which port does the collector listen on?", "how did we fix
 * the submodule error?", "what is left on the dashboard?". The prompt hook answers such a
 * prompt with the lines of memory that respond to it ({@code AnswerLines}); any other
 * prompt keeps the ranked index.
 *
 * <p>
 * <b>How a prompt is recognised.</b> Whitespace collapsed, it is at most
 * {@value #MAX_CHARS} characters (a pasted log with a question at its end is work, not a
 * question about the past), and either its last sentence is a question
 * ({@link Questions#asks}) or it opens with a question word ({@code what}, {@code which},
 * {@code why}, {@code how}, {@code where}, {@code when}, {@code who}) or with
 * {@code remind me}, {@code do you remember}, {@code recall}. A request phrased as a
 * question is not one: {@code can you …}, {@code could you …}, {@code would you …},
 * {@code will you …}, {@code can we …}, {@code should we …}, {@code please …},
 * {@code what if …}, {@code how about …}, {@code why don't we …}, {@code let's …}, an
 * opening verb ({@code fix …}, {@code add …}, {@code run …}), unless it goes on to ask to
 * be told or reminded ({@code can you remind me why …}, {@code could you tell me
 * which …}). Tense is not required: "which port does the collector listen on?" is
 * answered by what was recorded, and when nothing recorded answers, nothing is injected.
 *
 * <p>
 * <b>What it asks for</b> ({@link Kind}) is read from its words, first match wins: a fix,
 * a reason, the state of the work, a decision, a way to do something, a value (a port, a
 * version, a path, a command, an error…) or something else.
 */
public record PastQuestion(Kind kind, Shape wanted) {

    /** Longest prompt taken for a question, whitespace collapsed. */
    public static final int MAX_CHARS = 300;

    /** What the question asks for, and so what an answering line holds. */
    public enum Kind {

        /** How a failure was fixed: the change that made it pass. */
        FIX,
        /** Why something was done: a reason clause. */
        WHY,
        /** What is done, left or next. */
        STATUS,
        /** What was decided or chosen. */
        DECISION,
        /** How to do something: a command, steps. */
        HOWTO,
        /** A value: a port, a version, a path, a name, an error string. */
        VALUE,
        /** Any other question about the work. */
        OTHER

    }

    /** The shape of the value a {@link Kind#VALUE} question wants; NONE otherwise. */
    public enum Shape {

        /** A number: a port, a version, a size, a limit, a count. */
        NUMBER,
        /** A file or folder path, a file name. */
        PATH,
        /** A URL, a host, an endpoint. */
        URL,
        /** A command, a flag, an option. */
        COMMAND,
        /** An error message or code. */
        ERROR,
        /** A name or anything else in code: a backquoted identifier. */
        CODE, NONE

    }

    private static final Pattern WH_OPENING = Pattern
        .compile("^(?:what|what's|whats|which|why|how|where|when|who|whose|remind me|do you remember|recall)\\b");

    private static final Pattern REQUEST = Pattern
        .compile("^(?:(?:can|could|would|will|won't|shall|should) (?:you|u|we)|please|"
                + "what if|how about|why don't|why not|shall we|let's|lets|let us|go ahead|make|add|fix|write|create|"
                + "implement|update|change|run|remove|delete|refactor|rename|try)\\b");

    private static final Pattern ASKS_TO_BE_TOLD = Pattern
        .compile("\\b(?:remind|tell|recall|remember|explain to) (?:me|us)?\\s*(?:what|which|why|how|where|when|who)"
                + "|\\b(?:remind|tell) (?:me|us)\\b");

    private static final Pattern FIX = Pattern.compile("\\bhow (?:did|do|does|can|could|would|have) (?:we|i|you|it)\\b"
            + ".*\\b(?:fix|fixed|solve|solved|resolve|resolved|work around|get around|get past|repair|handle|handled|"
            + "unblock|unstick)\\b|\\bwhat (?:fixed|solved|resolved|was the (?:fix|solution|workaround|remedy)|"
            + "is the (?:fix|solution|workaround))\\b|\\b(?:the )?(?:fix|solution|workaround) (?:for|to)\\b");

    private static final Pattern WHY = Pattern.compile(
            "(?:^|\\b(?:me|us) )why\\b|\\bwhat (?:was |is )?caus|\\b(?:what|which) (?:was|is|were) the (?:reason|rationale|motivation|point)\\b|"
                    + "\\breason (?:for|why|we)\\b|\\bhow come\\b|\\bwhat (?:made|led) (?:us|you|me)\\b");

    private static final Pattern STATUS = Pattern.compile("\\b(?:left|remaining|remain|todo|to-do|to do|pending|"
            + "outstanding|unfinished|status|progress|next steps?|done yet|finished|complete|completed|still open|"
            + "open items?|where (?:were|are|did) we|where we (?:left|stopped))\\b");

    private static final Pattern DECISION = Pattern
        .compile("\\b(?:decide|decided|decision|choose|chose|chosen|pick|picked|go with|went with|settle|settled|"
                + "agree|agreed|opt|opted|prefer|preferred)\\b");

    private static final Pattern HOWTO = Pattern.compile(
            "^how (?:do|did|does|can|could|should|would|to)\\b|\\bhow to\\b|\\bwhat (?:command|commands|steps|script)\\b");

    private static final Pattern NUMBER_NOUN = Pattern.compile("\\b(?:port|version|versions|size|limit|timeout|"
            + "number|count|how many|how much|threshold|percentage|percent|interval|budget|max|maximum|minimum|"
            + "rate|duration|delay|ttl|memory|ram|line|lines)\\b");

    private static final Pattern PATH_NOUN = Pattern
        .compile("\\b(?:path|file|files|folder|folders|directory|dir|directories|filename|location|where)\\b");

    private static final Pattern URL_NOUN = Pattern
        .compile("\\b(?:url|urls|endpoint|endpoints|host|hostname|address|domain|link|route)\\b");

    private static final Pattern COMMAND_NOUN = Pattern
        .compile("\\b(?:command|commands|flag|flags|option|options|cli|invocation|script|argument|arguments)\\b");

    private static final Pattern ERROR_NOUN = Pattern
        .compile("\\b(?:error|errors|exception|exceptions|failure|failed|fail|fails|crash|crashed|broke|broken|"
                + "warning|message|stack trace|traceback|went wrong)\\b");

    private static final Pattern CODE_NOUN = Pattern.compile("\\b(?:name|named|called|function|method|class|"
            + "module|package|library|variable|env|key|setting|field|table|column|model|tool|process|branch|tag)\\b");

    /**
     * The question this prompt asks about the project's work, or empty when it is not one
     * (see the class comment).
     */
    public static Optional<PastQuestion> of(String prompt) {
        if (prompt == null) {
            return Optional.empty();
        }
        String text = prompt.replaceAll("\\s+", " ").strip();
        if (text.isEmpty() || text.length() > MAX_CHARS) {
            return Optional.empty();
        }
        String lower = text.toLowerCase(Locale.ROOT).replace('’', '\'');
        boolean asked = Questions.asks(text) || WH_OPENING.matcher(lower).find();
        if (!asked || REQUEST.matcher(lower).find() && !ASKS_TO_BE_TOLD.matcher(lower).find()) {
            return Optional.empty();
        }
        return Optional.of(classify(lower));
    }

    private static PastQuestion classify(String q) {
        if (FIX.matcher(q).find()) {
            return new PastQuestion(Kind.FIX, Shape.NONE);
        }
        if (WHY.matcher(q).find()) {
            return new PastQuestion(Kind.WHY, Shape.NONE);
        }
        if (STATUS.matcher(q).find()) {
            return new PastQuestion(Kind.STATUS, Shape.NONE);
        }
        if (DECISION.matcher(q).find()) {
            return new PastQuestion(Kind.DECISION, Shape.NONE);
        }
        if (HOWTO.matcher(q).find()) {
            return new PastQuestion(Kind.HOWTO, Shape.COMMAND);
        }
        Shape shape = shape(q);
        return new PastQuestion(shape == Shape.NONE ? Kind.OTHER : Kind.VALUE, shape);
    }

    private static Shape shape(String q) {
        if (ERROR_NOUN.matcher(q).find()) {
            return Shape.ERROR;
        }
        if (URL_NOUN.matcher(q).find()) {
            return Shape.URL;
        }
        if (NUMBER_NOUN.matcher(q).find()) {
            return Shape.NUMBER;
        }
        if (COMMAND_NOUN.matcher(q).find()) {
            return Shape.COMMAND;
        }
        if (PATH_NOUN.matcher(q).find()) {
            return Shape.PATH;
        }
        if (CODE_NOUN.matcher(q).find()) {
            return Shape.CODE;
        }
        return Shape.NONE;
    }

}
