package dev.codememory.processors.extract;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.text.TextCuts;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sentence rules of {@link RuleBasedExtractor}; its javadoc lists them for readers.
 * Stateless; every pattern is compiled once. Patterns run on a cleaned copy of the
 * sentence (markdown {@code **}, {@code __} and backticks removed, typographic
 * apostrophes made straight, whitespace collapsed); quotes always use the sentence as
 * written.
 */
final class ClaimRules {

    /**
     * Who wrote the sentence. Preferences and "I'll …" tasks count only when the user
     * wrote them.
     */
    enum Speaker {

        USER, ASSISTANT

    }

    /** What a sentence claims. {@code task} is set for tasks only. */
    record Claim(CandidateKind kind, String title, TaskFields task) {
    }

    static final int MIN_SENTENCE_CHARS = 6;
    static final int MAX_SENTENCE_CHARS = 500;
    static final int TITLE_MAX = 100;

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    // ---- task markers and cues ----

    static final Pattern TASK_MARKER = p("^(?:todo|to-do|fixme|task|action\\s+item|next\\s+steps?)\\s*[:：]", "^todo\\b",
            "\\btodo:", "^할\\s*일\\s*[:：]");

    /**
     * A task the user sets aside for later: a reminder or work still to do. "We need to
     * …" alone is not one — in a prompt it asks for the work now, and Claude's own to-do
     * list records it if it takes more than a turn.
     */
    static final Pattern TASK_CUE = p("\\bremind\\s+me\\s+to\\b",
            "\\b(?:don't|do\\s+not)\\s+(?:let\\s+me\\s+)?forget\\s+(?:to|about)\\b", "\\bnext\\s+step\\s+is\\b",
            "\\bwe\\s+still\\s+(?:need|have)\\s+to\\b",
            "\\b(?:later|eventually|at\\s+some\\s+point|next\\s+time|tomorrow|next\\s+week),?\\s+(?:we|I)"
                    + "\\s+(?:need|have|should|must|want)\\s+to\\b",
            "\\bwe(?:'ll|\\s+will)\\s+(?:need|have)\\s+to\\b.*\\b(?:later|eventually|at\\s+some\\s+point|next\\s+time"
                    + "|tomorrow|next\\s+week)\\b",
            "야\\s*(?:한다|함|해|합니다|돼|된다|겠)");

    // ---- task status and priority ----

    static final Pattern DONE = p(
            "\\b(?:is|are|was|were|'s|has\\s+been|have\\s+been)\\s+(?:now\\s+|already\\s+)?"
                    + "(?:done|finished|completed|complete)\\b",
            "\\b(?:I|we)(?:'ve|\\s+have)?\\s+(?:already\\s+)?(?:finished|completed)\\b",
            "(?:^|\\s)[—–-]+\\s*(?:done|finished|completed)\\b", "\\((?:done|finished|completed)\\)", "완료", "끝났", "마쳤");

    static final Pattern CANCELLED = p(
            "\\b(?:is|are|was|were|has\\s+been)\\s+(?:now\\s+)?(?:cancelled|canceled|dropped|abandoned)\\b",
            "\\bno\\s+longer\\s+needed\\b", "\\bwon't\\s+do\\b", "취소");

    static final Pattern BLOCKED = p("\\bblocked\\s+(?:on|by)\\b", "\\bwaiting\\s+(?:for|on)\\b",
            "\\b(?:is|are)\\s+(?:still\\s+|currently\\s+)?blocked\\b", "막혀", "막혔", "막힘", "막힌");

    /**
     * The part of {@link #BLOCKED} that makes a sentence a task on its own, without a
     * task cue.
     */
    static final Pattern BLOCKED_STATEMENT = p("\\b(?:is|are)\\s+(?:still\\s+|currently\\s+)?blocked\\b",
            "(?:^|\\s)[—–-]+\\s*blocked\\s+(?:on|by)\\b", "\\b(?:is|are)\\s+(?:still\\s+)?waiting\\s+(?:for|on)\\b",
            "막혀", "막혔", "막힘", "막힌");

    static final Pattern IN_PROGRESS = p("\\bin\\s+progress\\b",
            "\\b(?:I'm|I\\s+am|we're|we\\s+are)\\s+(?:currently\\s+|still\\s+)?working\\s+on\\b", "^working\\s+on\\b",
            "\\bWIP\\b", "진행\\s*중", "작업\\s*중");

    /** Group 1: what the task waits for, up to the end of the clause. */
    static final Pattern BLOCKER = p("(?:blocked\\s+(?:on|by)|waiting\\s+(?:for|on))\\s+(.+?)"
            + "\\s*(?:[.;!)]\\s|[.;!)]?\\s*$|,\\s|\\s[—–]\\s|\\s+(?:but|so|until|because|before)\\s)");

    /** Group 1: the word before {@code 때문에 / 에 / (으)로} and {@code 막혀 / 막혔 / 막힘 / 막힌}. */
    static final Pattern BLOCKER_KO = Pattern.compile("([\\p{L}\\p{N}#._/-]+?)\\s*(?:때문에|에|으로|로)\\s*(?:막혀|막혔|막힘|막힌)");

    private static final Pattern BLOCKER_SEPARATOR = p("\\s*,\\s*|\\s+and\\s+|\\s*&\\s*");

    static final Pattern PRIORITY_CRITICAL = p("\\bcritical\\b", "\\bP0\\b");
    static final Pattern PRIORITY_HIGH = p("\\burgent(?:ly)?\\b", "\\basap\\b", "\\bhigh[\\s-]priority\\b", "\\bP1\\b",
            "긴급", "시급", "우선순위\\s*(?:가\\s*)?높");
    static final Pattern PRIORITY_MEDIUM = p("\\b(?:medium|normal)[\\s-]priority\\b");
    static final Pattern PRIORITY_LOW = p("\\blow[\\s-]priority\\b", "우선순위\\s*(?:가\\s*)?낮");

    // ---- the other kinds ----

    static final Pattern DECISION = p(
            "\\bwe(?:'ve|\\s+have)?\\s+(?:decided|chosen|chose|settled\\s+on|agreed\\s+(?:to|on|that))\\b",
            "\\b(?:we'll|we\\s+will|we're\\s+going\\s+to|we\\s+are\\s+going\\s+to|let's|let\\s+us)\\s+go\\s+with\\b",
            "\\bwe(?:'re|\\s+are)\\s+going\\s+with\\b",
            "\\b(?:we'll|we\\s+will|we\\s+should|we're\\s+going\\s+to|let's|let\\s+us)\\s+"
                    + "(?:use|switch\\s+to|adopt|pick|choose|stick\\s+with|move\\s+to|migrate\\s+to)\\b"
                    + ".*\\b(?:instead\\s+of|rather\\s+than)\\b",
            "^decision\\s*[:：]", "결정(?:했|함|하였|됐|되었|하자|이다|\\s*[:：])", "기로\\s*(?:했|함|하였|결정|합의)",
            "(?:대신|말고).*(?:쓰기로|쓰자|사용하기로|사용하자)");

    /**
     * The part of {@link #DECISION} that reports a decision already made ("we decided to
     * …", "we've settled on …", "Decision: …"): precise enough to take from a reply too,
     * where the proposals ("let's use …", "we'll go with …") are not.
     */
    static final Pattern DECISION_MADE = p(
            "\\bwe(?:'ve|\\s+have)?\\s+(?:decided|chosen|chose|settled\\s+on|agreed\\s+(?:to|on|that))\\b",
            "^decision\\s*[:：]", "결정(?:했|함|하였|됐|되었|이다|\\s*[:：])", "기로\\s*(?:했|함|하였|결정|합의)");

    static final Pattern PREFERENCE = p(
            "\\bI(?:'d|\\s+would)?\\s+(?:really\\s+|strongly\\s+|generally\\s+|always\\s+)?prefer\\b",
            "\\bmy\\s+preference\\s+is\\b", "\\bI\\s+(?:really\\s+)?like\\b.*\\bbetter\\b",
            "\\bI\\s+(?:don't|do\\s+not)\\s+(?:like|want)\\b", "^(?:please\\s+)?(?:always|never)\\b",
            "\\bplease\\s+(?:always|never)\\b", "\\b(?:don't|do\\s+not)\\s+ever\\b",
            "^(?:please\\s+)?(?:use|prefer)\\s+[^,;]{1,40}?,?\\s+(?:not|instead\\s+of|rather\\s+than|over)\\s+\\S",
            "선호", "항상", "절대", "지\\s*(?:마|말)(?:세요|라|요|아|고|\\s|[.!,]|$)", "더\\s*좋");

    static final Pattern INSIGHT = p("\\bturn(?:s|ed)\\s+out\\b", "\\bthe\\s+root\\s+cause\\s+(?:was|is)\\b",
            "\\bthe\\s+(?:real\\s+)?(?:fix|culprit)\\s+(?:was|is)\\b", "\\blessons?\\s+learned\\b",
            "\\bnote\\s+to\\s+self\\b", "^TIL\\b", "알고\\s*보니", "근본\\s*원인", "원인은", "교훈");

    private static final String FACT_NOUNS = "deployment\\s+target|tech\\s+stack|stack|database|db|backend|frontend"
            + "|api|ci|ci\\s+pipeline|build\\s+tool|default\\s+branch|main\\s+branch|runtime|language|framework"
            + "|test\\s+runner|package\\s+manager|event\\s+store|registry|jdk|java\\s+version|node\\s+version"
            + "|python\\s+version|base\\s+url|endpoint|cluster|license|port";

    private static final String TRANSIENT = "not|no\\s+longer|failing|broken|down|missing|empty|wrong|slow|still"
            + "|currently|being|now|done|finished|complete|completed|blocked|in\\s+progress";

    static final Pattern FACT = p(
            "^(?:the|our)\\s+(?:[\\p{L}\\p{N}_./-]+\\s+){0,2}?(?:" + FACT_NOUNS + ")\\s+(?:is|are)\\s+(?!(?:"
                    + TRANSIENT + ")\\b)\\S",
            "^(?:the|our)\\s+(?:[\\p{L}\\p{N}_./-]+\\s+){0,3}?(?:lives|is\\s+located|is\\s+hosted|is\\s+deployed|runs)"
                    + "\\s+(?:at|in|on|to)\\s+\\S",
            "\\b(?:runs|listens|is\\s+running|is\\s+listening|is\\s+served|serves)\\s+on\\s+port\\s+\\d{2,5}\\b",
            "^(?:(?:here|in\\s+this\\s+(?:project|repo|repository|codebase)|at\\s+work),?\\s+)?"
                    + "we\\s+(?:use|are\\s+using|'re\\s+using|deploy\\s+to|deploy\\s+on|host\\s+on)\\s+\\S");

    // ---- titles ----

    private static final Pattern TASK_TITLE_PREFIX = p("^next\\s+step\\s+is\\s+(?:to\\s+)?",
            "^(?:todo|to-do|fixme)\\b\\s*[:：—–-]?\\s*", "^(?:task|action\\s+item|next\\s+steps?)\\s*[:：]\\s*",
            "^we\\s+(?:still\\s+)?(?:need|have)\\s+to\\s+", "^I(?:'ll|\\s+will)\\s+",
            "^(?:please\\s+)?remind\\s+me\\s+to\\s+",
            "^(?:please\\s+)?(?:don't|do\\s+not)\\s+(?:let\\s+me\\s+)?forget\\s+(?:to|about)\\s+",
            "^(?:later|eventually|at\\s+some\\s+point|next\\s+time|tomorrow|next\\s+week),?\\s+(?:we|I)\\s+"
                    + "(?:need|have|should|must|want)\\s+to\\s+",
            "^we(?:'ll|\\s+will)\\s+(?:need|have)\\s+to\\s+",
            "^(?:I|we)(?:'ve|\\s+have)?\\s+(?:already\\s+)?(?:finished|completed)\\s+",
            "^(?:I'm|I\\s+am|we're|we\\s+are)\\s+(?:currently\\s+|still\\s+)?working\\s+on\\s+", "^working\\s+on\\s+",
            "^할\\s*일\\s*[:：]\\s*");

    private static final String STATUS_WORDS = "done|finished|completed|complete|blocked|waiting|in\\s+progress"
            + "|cancelled|canceled|dropped|no\\s+longer\\s+needed";

    private static final String COPULA = "(?:is|are|was|were|'s|has\\s+been|have\\s+been)\\s+"
            + "(?:now\\s+|already\\s+|still\\s+|currently\\s+)?";

    private static final Pattern TASK_TITLE_STATUS_TAIL = p(
            "\\s*(?:[—–]|\\s-+|[,;(])\\s*(?:" + COPULA + ")?(?:" + STATUS_WORDS + ")\\b.*$",
            "\\s+" + COPULA + "(?:" + STATUS_WORDS + ")\\b.*$");

    private static final Pattern TASK_TITLE_PRIORITY_TAIL = p(
            "(?:\\s*(?:[—–]|\\s-+|[,;(\\[])\\s*|\\s+)(?:urgent(?:ly)?|asap|critical|(?:high|medium|normal|low)"
                    + "[\\s-]priority|P[0-3])[)\\]]?\\s*[.!]?$");

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /**
     * The words that only say "a preference follows", removed to see whether anything is
     * preferred.
     */
    private static final Pattern PREFERENCE_CUE = p(
            "^.*?\\bI(?:'d|\\s+would)?\\s+(?:really\\s+|strongly\\s+|generally\\s+" + "|always\\s+)?prefer\\b",
            "^.*?\\bmy\\s+preference\\s+is\\b");

    private static final Pattern CJK = Pattern.compile("[\\p{IsHangul}\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]");

    private static final Pattern TRAILING_PUNCTUATION = Pattern.compile("[\\s.。!！:：;,]+$");

    private ClaimRules() {
    }

    private static Pattern p(String... alternatives) {
        return Pattern.compile(String.join("|", alternatives), FLAGS);
    }

    /**
     * What the sentence claims, or null when it claims nothing these rules recognise.
     * Tasks, preferences, status statements and proposed decisions come from the user's
     * own words only: in a reply, "I'll …", "let's use …", "we should …" and "next steps:
     * …" are Claude narrating or suggesting, never a commitment by themselves (Claude's
     * real task list is its TodoWrite tool, read separately); a reply may report a
     * decision already made ("we decided to …", "Decision: …", {@link #DECISION_MADE}).
     * Insights and facts may come from either side. Every claim's title must be a whole
     * clause ({@link Clauses#isClause}); a preference must name what is preferred. A
     * status statement ("X is done", "X is blocked on Y") is a task claim; "I'm working
     * on X" and "I'll X" are not (they describe the moment, and a person's "I'll" is
     * conversation as often as a commitment), and a prose statement that something is
     * done only closes a task that exists (see the task resolver).
     */
    static Claim classify(String sentence, Speaker speaker) {
        String text = clean(sentence);
        if (text.length() < MIN_SENTENCE_CHARS || text.length() > MAX_SENTENCE_CHARS || text.endsWith("?")
                || text.endsWith("？")) {
            return null;
        }
        boolean user = speaker == Speaker.USER;
        Claim claim = null;
        boolean statement = false;
        if (user && TASK_MARKER.matcher(text).find()) {
            claim = task(text);
        }
        else if (user && DECISION.matcher(text).find() || DECISION_MADE.matcher(text).find()) {
            claim = new Claim(CandidateKind.DECISION, title(text, user), null);
        }
        else if (user && PREFERENCE.matcher(text).find()) {
            claim = preference(text);
        }
        else if (user && TASK_CUE.matcher(text).find()) {
            claim = task(text);
        }
        else if (INSIGHT.matcher(text).find()) {
            claim = new Claim(CandidateKind.INSIGHT, title(text, user), null);
        }
        else if (user && (DONE.matcher(text).find() || CANCELLED.matcher(text).find()
                || BLOCKED_STATEMENT.matcher(text).find())) {
            claim = task(text);
            statement = true;
        }
        else if (FACT.matcher(text).find()) {
            claim = new Claim(CandidateKind.FACT, title(text, user), null);
        }
        return claim == null || !precise(claim, statement ? text : null) ? null : claim;
    }

    /**
     * Whether the claim is precise enough to keep: its title a whole clause — or, for a
     * status statement ("the release notes are waiting for legal review"), the sentence a
     * whole clause and its title, the subject, at least two content words — and a blocked
     * task's blockers named.
     */
    private static boolean precise(Claim claim, String statement) {
        boolean clause = statement == null ? Clauses.isClause(claim.title())
                : Clauses.isClause(statement) && Clauses.contentWords(claim.title()) >= Clauses.MIN_CONTENT_WORDS;
        if (!clause) {
            return false;
        }
        if (claim.task() != null && "blocked".equals(claim.task().status())) {
            return !claim.task().blockers().isEmpty() && claim.task().blockers().stream().allMatch(Clauses::isBlocker);
        }
        return true;
    }

    /**
     * A preference names what is preferred: the sentence without its cue must still say
     * something.
     */
    private static Claim preference(String text) {
        String rest = PREFERENCE_CUE.matcher(text).replaceFirst("").strip();
        long words = rest.isEmpty() ? 0 : rest.split("\\s+").length;
        if (words < 2 && !CJK.matcher(text).find()) {
            return null;
        }
        return new Claim(CandidateKind.PREFERENCE, title(text), null);
    }

    private static Claim task(String text) {
        String status;
        List<String> blockers = List.of();
        if (DONE.matcher(text).find()) {
            status = "done";
        }
        else if (CANCELLED.matcher(text).find()) {
            status = "cancelled";
        }
        else if (BLOCKED.matcher(text).find()) {
            status = "blocked";
            blockers = blockers(text);
        }
        else if (IN_PROGRESS.matcher(text).find()) {
            status = "in_progress";
        }
        else {
            status = "pending";
        }
        return new Claim(CandidateKind.TASK, taskTitle(text), new TaskFields(status, priority(text), blockers));
    }

    private static String priority(String text) {
        if (PRIORITY_CRITICAL.matcher(text).find()) {
            return "critical";
        }
        if (PRIORITY_HIGH.matcher(text).find()) {
            return "high";
        }
        if (PRIORITY_MEDIUM.matcher(text).find()) {
            return "medium";
        }
        if (PRIORITY_LOW.matcher(text).find()) {
            return "low";
        }
        return null;
    }

    /**
     * The blockers as written, in order, without duplicates. Empty when none can be read
     * off the sentence.
     */
    static List<String> blockers(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = BLOCKER.matcher(text);
        while (m.find()) {
            for (String part : BLOCKER_SEPARATOR.split(m.group(1))) {
                addBlocker(part, out);
            }
        }
        Matcher ko = BLOCKER_KO.matcher(text);
        while (ko.find()) {
            addBlocker(ko.group(1), out);
        }
        return List.copyOf(new ArrayList<>(out));
    }

    private static void addBlocker(String raw, Set<String> out) {
        String b = TRAILING_PUNCTUATION.matcher(raw.strip()).replaceAll("");
        if (!b.isEmpty()) {
            out.add(b);
        }
    }

    /**
     * The task itself: the sentence without its cue, status clause, priority and end
     * punctuation.
     */
    private static String taskTitle(String text) {
        String t = TASK_TITLE_PREFIX.matcher(text).replaceFirst("");
        Matcher tail = TASK_TITLE_STATUS_TAIL.matcher(t);
        if (tail.find()) {
            t = t.substring(0, tail.start());
        }
        t = TASK_TITLE_PRIORITY_TAIL.matcher(t).replaceFirst("");
        t = TRAILING_PUNCTUATION.matcher(t).replaceAll("");
        return t.strip().length() < 3 ? title(text) : TextCuts.shorten(t.strip(), TITLE_MAX);
    }

    /**
     * A title cut from the sentence: from Claude's reply, the sentence is gated whole
     * before it is cut (the user's own words are shown as they are).
     */
    private static String title(String text, boolean user) {
        return user ? title(text) : ContextGate.shorten(TRAILING_PUNCTUATION.matcher(text).replaceAll(""), TITLE_MAX);
    }

    private static String title(String text) {
        return TextCuts.shorten(TRAILING_PUNCTUATION.matcher(text).replaceAll(""), TITLE_MAX);
    }

    /** The sentence as the patterns see it. */
    static String clean(String sentence) {
        String t = sentence.replace("**", "")
            .replace("__", "")
            .replace("`", "")
            .replace('\u2019', '\'')
            .replace('\u2018', '\'');
        return WHITESPACE.matcher(t.strip()).replaceAll(" ");
    }

}
