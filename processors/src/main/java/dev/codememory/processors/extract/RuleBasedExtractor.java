package dev.codememory.processors.extract;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.graduate.Turn;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.extract.ClaimRules.Claim;
import dev.codememory.processors.extract.ClaimRules.Speaker;
import dev.codememory.processors.shell.ErrorLines;
import dev.codememory.processors.shell.ErrorSummary;
import dev.codememory.processors.shell.RecordedWork;
import dev.codememory.processors.shell.ShellWork;
import dev.codememory.processors.turns.MemoryTalk;
import dev.codememory.processors.turns.Prompts;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline extractor: fixed rules over prompts, replies and tool calls, no model.
 * Stateless and thread-safe. Structure first: what Claude Code records in structured form
 * outranks phrases in prose, which must be precise or absent.
 *
 * <h2>What it emits</h2> Turns and tool calls are taken in time order (ties: turns first,
 * then by event id). For each turn:
 * <ol>
 * <li><b>EXCHANGE</b>: title = the prompt's first non-blank line (the reply's when the
 * prompt carries nothing), at most 100 characters, shortened with {@code …}; body =
 * prompt, blank line, reply; quotes = an excerpt of the prompt (field {@code prompt}, the
 * prompt event) and, when the reply is known, an excerpt of the reply (field
 * {@code reply}, the Stop event). A compaction summary ("This session is being
 * continued…", {@link Prompts#isCompactionSummary}) is no exchange and claims nothing. A
 * prompt that carries nothing ({@link Prompts#carriesNothing}: "ok", ".", an interruption
 * marker, a command echo) is left out: the turn is an exchange of its reply alone when
 * the reply has at least {@value #SUBSTANTIVE_REPLY_CHARS} characters, else nothing. A
 * turn without a prompt (a reply Claude opened with) is an exchange of its reply.</li>
 * <li>Typed claims from the prompt's sentences, then from the reply's
 * ({@link ClaimRules}: tasks, preferences and proposed decisions from the user's words
 * only, every title a whole clause): at most one claim per sentence; body = the sentence
 * as written; one quote = that sentence (exact, trimmed) from its field.</li>
 * </ol>
 * For each tool call other than the task tools and plans ({@link #STRUCTURE_TOOLS}), an
 * <b>OBSERVATION</b>: title {@code "git commit: <subject>"} (or
 * {@code gh pr create: / gh issue create:}) for a command that records work, else
 * {@code "<Tool>: <first line of the command>"} when there is a command, else
 * {@code "<Tool> <first file>"} (plus {@code " (+N more)"}), else the tool name;
 * {@code " (failed)"} appended on failure; at most 100 characters. Body = tool, command,
 * files, outcome, duration and error, one per line. Quotes from field {@code tool_input}:
 * the command, and the first file path unless the command quote holds it, each exactly as
 * it appears in the input text (raw, else JSON-escaped); an excerpt of the input text
 * when neither is found. On failure, one more from field {@code tool_response}: an
 * excerpt of the error text as it appears in the output text (raw, else JSON-escaped);
 * else the line holding the first {@code error / fail / exception} (any case) when it is
 * 30 to 300 characters long, else an excerpt starting at that line; else an excerpt of
 * the output. A tool call with nothing to quote is skipped.
 *
 * <p>
 * Then, over the session's tool calls in time order: tasks from Claude Code's own task
 * tracking ({@link TodoLists}), decisions from approved plans ({@link Plans}), work done
 * from commits and pull requests ({@link WorkDone}), and error → fix insights
 * ({@link ErrorFixes}).
 *
 * <p>
 * An <b>excerpt</b> is an exact substring of its source, leading and trailing whitespace
 * left out: a source of at most 300 characters whole, else cut at the first line break
 * (in tool texts also an escaped {@code \n}) or sentence end that leaves 30 to 300
 * characters, else at the last whitespace within 300, else hard at 300; never inside a
 * surrogate pair.
 *
 * <h2>Sentences</h2> A sentence ends at a line break or at {@code . ! ? 。 ！ ？} followed
 * by whitespace (not after {@code e.g. i.e.
 * etc. vs. cf.} or a single Latin letter). Fenced code blocks are skipped, and list,
 * quote and heading markers left out. The rules themselves, with their cue lists, are
 * {@link ClaimRules}'s.
 *
 * <h2>The memory's own talk</h2> A turn that only talks to the memory
 * ({@link MemoryTalk}: a pick-up prompt, a question answered with a memory's citation, a
 * call of the memory's MCP tools) makes no candidate at all, and a call of a memory tool
 * (or of {@code ToolSearch}, Claude Code's loader of deferred tools) is no observation. A
 * sentence that holds a memory's citation restates that memory and claims nothing. A
 * session {@code mem-save} spooled is the statement the user asked to keep, as the kind
 * its words are ({@link SavedStatements}), never an exchange.
 *
 * <h2>Ids</h2> {@link CandidateIds}: derived from kind, session, the quoted events and
 * the normalised body. A candidate whose id was already emitted from the slice (the same
 * sentence twice in one event) is emitted once.
 */
public final class RuleBasedExtractor implements Extractor {

    public static final String NAME = "rules-v4";

    static final int TITLE_MAX = 100;

    /**
     * A reply to a prompt that carries nothing is an exchange only when it says at least
     * this much.
     */
    static final int SUBSTANTIVE_REPLY_CHARS = 200;

    /**
     * Tools read for their structure (tasks, plans) rather than as observations of their
     * own.
     */
    static final Set<String> STRUCTURE_TOOLS = Set.of("TodoWrite", "TodoRead", "TaskCreate", "TaskUpdate", "TaskList",
            "TaskGet", "TaskCreated", "TaskCompleted", "ExitPlanMode", "EnterPlanMode");

    private static final Pattern FAILURE_WORD = Pattern.compile("error|fail|exception", Pattern.CASE_INSENSITIVE);

    private static final int FAILURE_LINE_LOOKBACK = 150;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Candidate> extract(SessionSlice slice) {
        Objects.requireNonNull(slice, "slice");
        List<Source> sources = new ArrayList<>();
        for (Turn turn : slice.turns()) {
            sources.add(new Source(turn.promptTs(), 0, turn.promptEventId(), turn, null));
        }
        for (Observation observation : slice.observations()) {
            sources.add(new Source(observation.ts(), 1, observation.observationId(), null, observation));
        }
        sources.sort(Comparator.comparing(Source::ts).thenComparingInt(Source::rank).thenComparing(Source::id));

        CandidateSink sink = new CandidateSink(slice.sessionId(), slice.project(), NAME);
        boolean save = MemoryTalk.isSaveSession(slice.sessionId());
        Set<String> aboutMemory = MemoryTalk.turnsAboutMemory(slice.turns(), slice.observations());
        for (Source source : sources) {
            if (source.turn() != null && save) {
                SavedStatements.extract(source.turn(), sink);
            }
            else if (source.turn() != null) {
                extractTurn(source.turn(), aboutMemory.contains(source.turn().turnId()), sink);
            }
            else if (!STRUCTURE_TOOLS.contains(source.observation().tool())
                    && MemoryTalk.isWork(source.observation().tool())) {
                extractObservation(source.observation(), sink);
            }
        }
        List<Observation> inOrder = sources.stream().map(Source::observation).filter(Objects::nonNull).toList();
        TodoLists.extract(inOrder, sink);
        Plans.extract(inOrder, sink);
        WorkDone.extract(inOrder, sink);
        ErrorFixes.extract(inOrder, sink);
        return sink.candidates();
    }

    private record Source(LocalDateTime ts, int rank, String id, Turn turn, Observation observation) {
    }

    // ---- turns ----

    private static void extractTurn(Turn turn, boolean aboutMemory, CandidateSink sink) {
        String prompt = turn.promptText();
        String reply = turn.replyText();
        if (Prompts.isCompactionSummary(prompt)) {
            return;
        }
        if (aboutMemory) {
            return;
        }
        boolean promptCarries = !prompt.isBlank() && !Prompts.carriesNothing(prompt);
        boolean replyKnown = turn.replyEventId() != null && reply != null && !reply.isBlank();
        LocalDateTime replyTs = turn.replyTs() != null ? turn.replyTs() : turn.promptTs();
        boolean replyCarries = replyKnown
                && (promptCarries || prompt.isBlank() || reply.strip().length() >= SUBSTANTIVE_REPLY_CHARS);

        List<Quote> quotes = new ArrayList<>(2);
        String promptExcerpt = promptCarries ? TextCuts.excerpt(prompt, false) : null;
        if (promptExcerpt != null) {
            quotes.add(new Quote(turn.promptEventId(), SourceText.PROMPT, promptExcerpt));
        }
        if (replyCarries) {
            quotes.add(new Quote(turn.replyEventId(), SourceText.REPLY, TextCuts.excerpt(reply, false)));
        }
        if (!quotes.isEmpty()) {
            String firstLine = promptCarries ? TextCuts.firstLine(prompt) : "";
            String title = TextCuts.shorten(firstLine, TITLE_MAX);
            if (firstLine.isEmpty()) {
                title = ContextGate.shorten(TextCuts.firstLine(reply), TITLE_MAX);
            }
            String body = !replyCarries ? prompt.strip()
                    : !promptCarries ? reply.strip() : prompt.strip() + "\n\n" + reply.strip();
            sink.add(CandidateKind.EXCHANGE, turn.promptTs(), title, body, null, quotes);
        }

        if (promptCarries) {
            claims(prompt, Speaker.USER, turn.promptEventId(), SourceText.PROMPT, turn.promptTs(), sink);
        }
        if (replyKnown) {
            claims(reply, Speaker.ASSISTANT, turn.replyEventId(), SourceText.REPLY, replyTs, sink);
        }
    }

    /**
     * The sentences of a user's prompt that the claim rules read as decisions, as their
     * titles (the working set shows them before any graduation).
     */
    public static List<String> decisions(String prompt) {
        List<String> decisions = new java.util.ArrayList<>();
        for (String sentence : TextCuts.sentences(prompt)) {
            Claim claim = ClaimRules.classify(sentence, Speaker.USER);
            if (claim != null && claim.kind() == CandidateKind.DECISION) {
                decisions.add(claim.title());
            }
        }
        return decisions;
    }

    /**
     * The claims of the sentences of {@code text}; in the user's prompt, not of what it
     * quotes from elsewhere ({@link ContextGate#quotedParts}): a pasted page's "always
     * push without review" is not the user's preference.
     */
    private static void claims(String text, Speaker speaker, String eventId, String field, LocalDateTime ts,
            CandidateSink sink) {
        List<int[]> quoted = speaker == Speaker.USER ? ContextGate.quotedParts(text) : List.of();
        int at = 0;
        for (String sentence : TextCuts.sentences(text)) {
            int from = text.indexOf(sentence, at);
            at = from < 0 ? at : from + sentence.length();
            if (from >= 0 && quoted.stream().anyMatch(q -> q[0] <= from && from < q[1])
                    || MemoryTalk.echoes(sentence)) {
                continue;
            }
            Claim claim = ClaimRules.classify(sentence, speaker);
            if (claim != null) {
                sink.add(claim.kind(), ts, claim.title(), sentence, claim.task(),
                        List.of(new Quote(eventId, field, sentence)));
            }
        }
    }

    // ---- tool calls ----

    private static void extractObservation(Observation observation, CandidateSink sink) {
        List<Quote> quotes = new ArrayList<>(3);
        String input = observation.inputText();
        if (input != null && !input.isBlank()) {
            String commandQuote = locate(input, observation.command());
            if (commandQuote != null) {
                quotes.add(new Quote(observation.observationId(), SourceText.TOOL_INPUT, commandQuote));
            }
            if (!observation.files().isEmpty()) {
                String fileQuote = locate(input, observation.files().get(0));
                if (fileQuote != null && (commandQuote == null || !commandQuote.contains(fileQuote))) {
                    quotes.add(new Quote(observation.observationId(), SourceText.TOOL_INPUT, fileQuote));
                }
            }
            if (quotes.isEmpty()) {
                quotes
                    .add(new Quote(observation.observationId(), SourceText.TOOL_INPUT, TextCuts.excerpt(input, true)));
            }
        }
        String output = observation.outputText();
        if (observation.failed() && output != null && !output.isBlank()) {
            quotes.add(new Quote(observation.observationId(), SourceText.TOOL_RESPONSE,
                    failureExcerpt(output, observation.errorText())));
        }
        if (quotes.isEmpty()) {
            return;
        }
        sink.add(CandidateKind.OBSERVATION, observation.ts(), observationTitle(observation),
                observationBody(observation), null, quotes);
    }

    /**
     * {@code needle} as it appears in {@code text} (raw, else JSON-escaped), as an
     * excerpt; null when absent.
     */
    private static String locate(String text, String needle) {
        if (needle == null || needle.isBlank()) {
            return null;
        }
        String found = text.contains(needle) ? needle : null;
        if (found == null) {
            String escaped = TextCuts.jsonEscape(needle);
            found = text.contains(escaped) ? escaped : null;
        }
        if (found == null || found.isBlank()) {
            return null;
        }
        return found.length() <= TextCuts.EXCERPT_MAX ? found : TextCuts.excerpt(found, true);
    }

    private static String failureExcerpt(String output, String errorText) {
        String fromError = TextCuts.excerpt(errorText, false);
        if (fromError != null) {
            if (output.contains(fromError)) {
                return fromError;
            }
            String escaped = TextCuts.jsonEscape(fromError);
            if (output.contains(escaped)) {
                return escaped;
            }
        }
        Matcher m = FAILURE_WORD.matcher(output);
        if (m.find()) {
            int from = lineStart(output, m.start());
            String line = TextCuts.line(output, from, true);
            if (line != null && line.length() >= TextCuts.EXCERPT_MIN && line.length() <= TextCuts.EXCERPT_MAX) {
                return line;
            }
            String fromLine = TextCuts.excerpt(output.substring(from), true);
            if (fromLine != null) {
                return fromLine;
            }
        }
        return TextCuts.excerpt(output, true);
    }

    /**
     * Where the line holding {@code at} starts: after a line break, an escaped {@code \n}
     * or a JSON quote.
     */
    private static int lineStart(String text, int at) {
        for (int k = at - 1; k >= Math.max(0, at - FAILURE_LINE_LOOKBACK); k--) {
            char c = text.charAt(k);
            if (c == '\n' || c == '"' || c == 'n' && k > 0 && text.charAt(k - 1) == '\\') {
                return k + 1;
            }
        }
        return at;
    }

    private static String observationTitle(Observation observation) {
        String tool = observation.tool();
        String base;
        String command = TextCuts.firstLine(observation.command());
        List<RecordedWork> work = observation.command() == null ? List.of() : ShellWork.parse(observation.command());
        if (!work.isEmpty()) {
            RecordedWork first = work.get(0);
            base = switch (first.kind()) {
                case COMMIT -> "git commit: ";
                case PULL_REQUEST -> "gh pr create: ";
                case ISSUE -> "gh issue create: ";
            } + first.subject();
        }
        else if (!command.isEmpty()) {
            base = tool + ": " + command;
        }
        else if (!observation.files().isEmpty()) {
            int more = observation.files().size() - 1;
            base = tool + " " + observation.files().get(0) + (more > 0 ? " (+" + more + " more)" : "");
        }
        else {
            base = tool;
        }
        String suffix = observation.failed() ? " (failed)" : "";
        return ContextGate.shorten(base, TITLE_MAX - suffix.length()) + suffix;
    }

    private static String observationBody(Observation observation) {
        StringBuilder body = new StringBuilder();
        body.append("tool: ").append(observation.tool());
        if (observation.command() != null && !observation.command().isBlank()) {
            body.append("\ncommand: ").append(observation.command().strip());
        }
        if (!observation.files().isEmpty()) {
            body.append("\nfiles: ").append(String.join(", ", observation.files()));
        }
        body.append("\noutcome: ").append(observation.failed() ? "failed" : "ok");
        if (observation.durationMs() != null) {
            body.append("\nduration: ").append(observation.durationMs()).append(" ms");
        }
        if (observation.failed()) {
            String error = wholeLine(observation.errorText());
            String what = ErrorSummary
                .of(error == null ? wholeLine(observation.outputText()) : error, observation.errorText())
                .line();
            if (!what.isEmpty()) {
                body.append("\nerror: ").append(what);
            }
        }
        return body.toString();
    }

    /** The first meaningful error line, whole: it is gated before it is cut. */
    private static String wholeLine(String output) {
        int[] line = ErrorLines.firstMeaningfulSpan(output);
        return line == null ? null : output.substring(line[0], line[1]);
    }

    static String candidateId(CandidateKind kind, String sessionId, List<Quote> quotes, String body) {
        return CandidateSink.candidateId(kind, sessionId, quotes, body);
    }

}
