package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.graduate.Turn;
import dev.codememory.processors.extract.ClaimRules.Claim;
import dev.codememory.processors.extract.ClaimRules.Speaker;
import dev.codememory.processors.extract.shell.RecordedWork;
import dev.codememory.processors.extract.shell.ShellWork;
import dev.codememory.processors.text.TextCuts;
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
 * The offline extractor: fixed rules over prompts, replies and tool calls, no model. Stateless and thread-safe.
 *
 * <h2>What it emits</h2>
 * Turns and tool calls are taken in time order (ties: turns first, then by event id). For each turn:
 * <ol>
 *   <li><b>EXCHANGE</b>: title = the prompt's first non-blank line (the reply's when the prompt is blank), at most
 *       100 characters, shortened with {@code …}; body = prompt, blank line, reply; quotes = an excerpt of the prompt
 *       (field {@code prompt}, the prompt event) and, when the reply is known (reply text and Stop event id both
 *       present), an excerpt of the reply (field {@code reply}, the Stop event).</li>
 *   <li>Typed claims from the prompt's sentences, then from the reply's: at most one claim per sentence; body = the
 *       sentence as written; one quote = that sentence (exact, trimmed) from its field.</li>
 * </ol>
 * For each tool call, an <b>OBSERVATION</b>: title {@code "<Tool>: <first line of the command>"} when there is a
 * command, else {@code "<Tool> <first file>"} (plus {@code " (+N more)"}), else the tool name; {@code " (failed)"}
 * appended on failure; at most 100 characters. Body = tool, command, files, outcome, duration and error, one per
 * line. Quotes from field {@code tool_input}: the command, and the first file path unless the command quote holds
 * it, each exactly as it appears in the input text (raw, else JSON-escaped); an excerpt of the input text when
 * neither is found (a command or path longer than 300 characters is quoted as an excerpt of itself). On failure, one
 * more from field {@code tool_response}: an excerpt of the error text as it appears in the output text (raw, else
 * JSON-escaped); else the line holding the first {@code error / fail / exception} (any case) when it is 30 to 300
 * characters long (in JSON text a line also ends at an escaped {@code \n} or at the end of a string value), else an
 * excerpt starting at that line; else an excerpt of the output. A tool call with nothing to quote is skipped.
 *
 * <p>An <b>excerpt</b> is an exact substring of its source, leading and trailing whitespace left out: a source of at
 * most 300 characters whole, else cut at the first line break (in tool texts also an escaped {@code \n}) or
 * sentence end that leaves 30 to 300 characters, else at the last whitespace within 300, else hard at 300; never
 * inside a surrogate pair.
 *
 * <h2>Sentences</h2>
 * A sentence ends at a line break or at {@code . ! ? 。 ！ ？} followed by whitespace (not after {@code e.g. i.e.
 * etc. vs. cf.} or a single Latin letter). Fenced code blocks are skipped, and list, quote and heading markers left
 * out. Patterns are matched case-insensitively on the sentence with {@code **}, {@code __} and backticks removed,
 * curly apostrophes straightened and whitespace collapsed. Sentences shorter than 6 or longer than 500 characters,
 * and questions (ending in {@code ?} or {@code ？}), claim nothing. The first rule that matches wins:
 * <ol>
 *   <li><b>TASK</b> by marker: starts with {@code TODO:}, {@code TODO}, {@code to-do:}, {@code FIXME:},
 *       {@code task:}, {@code action item:}, {@code next step(s):} or {@code 할 일:}; or holds {@code todo:}.</li>
 *   <li><b>DECISION</b>: {@code we ('ve|have) decided|chosen|chose|settled on|agreed to|on|that};
 *       {@code we'll|we will|we're going to|we are going to|let's|let us go with}; {@code we're|we are going with};
 *       {@code we'll|we will|we should|we're going to|let's|let us} + {@code use|switch to|adopt|pick|choose|stick
 *       with|move to|migrate to} + {@code … instead of|rather than …}; a sentence starting {@code decision:};
 *       Korean {@code 결정했 / 결정함 / 결정하였 / 결정됐 / 결정되었 / 결정하자 / 결정이다 / 결정:},
 *       {@code …기로 했|함|하였|결정|합의}, {@code 대신|말고 … 쓰기로|쓰자|사용하기로|사용하자}.</li>
 *   <li><b>PREFERENCE</b>, user prompts only: {@code I prefer / I'd prefer / I would prefer / I really|strongly|
 *       generally|always prefer}; {@code my preference is}; {@code I (really) like … better}; {@code I don't|do not
 *       like|want}; a sentence starting {@code always} or {@code never} (optionally after {@code please});
 *       {@code please always|never}; {@code don't|do not ever}; {@code (please) use|prefer X not|instead of|rather
 *       than|over Y} at the start (e.g. "use tabs not spaces"); Korean {@code 선호}, {@code 항상}, {@code 절대},
 *       {@code 하지 마 / 하지마 / 쓰지 마세요 / 하지 말고 …} ({@code 지 마|말}), {@code 더 좋}.</li>
 *   <li><b>TASK</b> by cue: {@code we (still) need to}, {@code we (still) have to}, {@code next step is},
 *       {@code remind me to}, Korean {@code …야 한다|함|해|합니다|돼|된다|겠} (e.g. {@code 해야 한다}); in user prompts
 *       also {@code I'll …} / {@code I will …} (in replies Claude narrates its next step that way).</li>
 *   <li><b>INSIGHT</b>: {@code turns out / turned out}, {@code the root cause was|is}, {@code the (real) fix|culprit
 *       was|is}, {@code lesson(s) learned}, {@code note to self}, a sentence starting {@code TIL}; Korean
 *       {@code 알고 보니}, {@code 근본 원인}, {@code 원인은}, {@code 교훈}.</li>
 *   <li><b>TASK</b> by status statement: any done, cancelled or in-progress cue below, or {@code is|are (still)
 *       blocked}, {@code is|are (still) waiting for|on}, {@code — blocked on|by}, {@code 막혀 / 막혔 / 막힘 /
 *       막힌}.</li>
 *   <li><b>FACT</b> (conservative): {@code the|our [up to 2 words] <noun> is|are …} where noun is one of deployment
 *       target, (tech) stack, database, db, backend, frontend, api, ci (pipeline), build tool, default|main branch,
 *       runtime, language, framework, test runner, package manager, event store, registry, jdk, java|node|python
 *       version, base url, endpoint, cluster, license, port, and the predicate does not start with not, no longer,
 *       failing, broken, down, missing, empty, wrong, slow, still, currently, being, now, done, finished, complete(d),
 *       blocked or in progress; {@code the|our [up to 3 words] lives|is located|is hosted|is deployed|runs at|in|on|to
 *       …}; {@code runs|listens|is running|is listening|is served|serves on port N}; a sentence starting {@code we
 *       use / we are using / we're using / we deploy to|on / we host on} (optionally after {@code here,} / {@code in
 *       this project|repo|repository|codebase,} / {@code at work,}). Korean facts are not recognised.</li>
 * </ol>
 *
 * <h2>Task fields</h2>
 * Status, first match wins: <b>done</b> ({@code is|are|was|were|'s|has been|have been (now|already)
 * done|finished|completed|complete}, {@code I|we ('ve|have) (already) finished|completed}, {@code — done},
 * {@code (done)}, {@code 완료}, {@code 끝났}, {@code 마쳤}); <b>cancelled</b> ({@code is|was|has been
 * cancelled|canceled|dropped|abandoned}, {@code no longer needed}, {@code won't do}, {@code 취소}); <b>blocked</b>
 * ({@code blocked on|by}, {@code waiting for|on}, {@code is|are blocked}, {@code 막혀 / 막혔 / 막힘 / 막힌});
 * <b>in_progress</b> ({@code in progress}, {@code I'm|we're (currently|still) working on}, a sentence starting
 * {@code working on}, {@code WIP}, {@code 진행 중}, {@code 작업 중}); else <b>pending</b>. Blockers (blocked only):
 * the text after {@code blocked on|by} or {@code waiting for|on} up to the end of the clause ({@code . ; ! )},
 * {@code ,}, a spaced dash, or {@code but / so / until / because / before}), split at commas, {@code and} and
 * {@code &}; in Korean the word before {@code 때문에 / 에 / (으)로} + {@code 막혀…}. Priority: <b>critical</b>
 * ({@code critical}, {@code P0}); <b>high</b> ({@code urgent(ly)}, {@code asap}, {@code high priority}, {@code P1},
 * {@code 긴급}, {@code 시급}, {@code 우선순위 높…}); <b>medium</b> ({@code medium|normal priority}); <b>low</b>
 * ({@code low priority}, {@code 우선순위 낮…}); else none. The title is the task itself: the sentence without its
 * leading cue ({@code TODO:}, {@code we need to}, {@code I'll}, {@code I've finished} …), its status clause
 * ({@code — blocked on X}, {@code is done} …), a trailing priority word and end punctuation.
 *
 * <p>Every other claim's title is its sentence without end punctuation, at most 100 characters.
 *
 * <h2>Ids</h2>
 * {@code candidateId = "cand_" + the first 32 hex digits of sha256(kind | sessionId | source event ids, comma-joined
 * in quote order | CanonicalKeys.normalize(body))}. A candidate whose id was already emitted from the slice (the same
 * sentence twice in one event) is emitted once.
 */
public final class RuleBasedExtractor implements Extractor {

    public static final String NAME = "rules-v2";

    static final int TITLE_MAX = 100;
    /** A reply to a prompt that carries nothing is an exchange only when it says at least this much. */
    static final int SUBSTANTIVE_REPLY_CHARS = 200;
    /** Tools read for their structure (tasks, plans) rather than as observations of their own. */
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
        for (Source source : sources) {
            if (source.turn() != null) {
                extractTurn(source.turn(), sink);
            } else if (!STRUCTURE_TOOLS.contains(source.observation().tool())) {
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

    private static void extractTurn(Turn turn, CandidateSink sink) {
        String prompt = turn.promptText();
        String reply = turn.replyText();
        if (Prompts.isCompactionSummary(prompt)) {
            return;
        }
        boolean promptCarries = !prompt.isBlank() && !Prompts.carriesNothing(prompt);
        boolean replyKnown = turn.replyEventId() != null && reply != null && !reply.isBlank();
        LocalDateTime replyTs = turn.replyTs() != null ? turn.replyTs() : turn.promptTs();
        boolean replyCarries = replyKnown && (promptCarries || reply.strip().length() >= SUBSTANTIVE_REPLY_CHARS);

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
            if (firstLine.isEmpty()) {
                firstLine = TextCuts.firstLine(reply);
            }
            String body = !replyCarries ? prompt.strip() : !promptCarries ? reply.strip()
                    : prompt.strip() + "\n\n" + reply.strip();
            sink.add(CandidateKind.EXCHANGE, turn.promptTs(), TextCuts.shorten(firstLine, TITLE_MAX), body, null,
                    quotes);
        }

        if (promptCarries) {
            claims(prompt, Speaker.USER, turn.promptEventId(), SourceText.PROMPT, turn.promptTs(), sink);
        }
        if (replyKnown) {
            claims(reply, Speaker.ASSISTANT, turn.replyEventId(), SourceText.REPLY, replyTs, sink);
        }
    }

    private static void claims(String text, Speaker speaker, String eventId, String field, LocalDateTime ts,
            CandidateSink sink) {
        for (String sentence : TextCuts.sentences(text)) {
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
                quotes.add(new Quote(observation.observationId(), SourceText.TOOL_INPUT,
                        TextCuts.excerpt(input, true)));
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

    /** {@code needle} as it appears in {@code text} (raw, else JSON-escaped), as an excerpt; null when absent. */
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

    /** Where the line holding {@code at} starts: after a line break, an escaped {@code \n} or a JSON quote. */
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
        } else if (!command.isEmpty()) {
            base = tool + ": " + command;
        } else if (!observation.files().isEmpty()) {
            int more = observation.files().size() - 1;
            base = tool + " " + observation.files().get(0) + (more > 0 ? " (+" + more + " more)" : "");
        } else {
            base = tool;
        }
        String suffix = observation.failed() ? " (failed)" : "";
        return TextCuts.shorten(base, TITLE_MAX - suffix.length()) + suffix;
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
        if (observation.failed() && observation.errorText() != null && !observation.errorText().isBlank()) {
            body.append("\nerror: ").append(observation.errorText().strip());
        }
        return body.toString();
    }

    static String candidateId(CandidateKind kind, String sessionId, List<Quote> quotes, String body) {
        return CandidateSink.candidateId(kind, sessionId, quotes, body);
    }
}
