package dev.codememory.processors.validate;

import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.TaskFields;
import dev.codememory.config.graduate.ValidationOutcome;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * L2 of the graduation pipeline: checks a candidate's typed invariants, corrects what can
 * be corrected without changing what it claims, and refuses the rest with a reason.
 * Stateless and thread-safe.
 *
 * <p>
 * Checked in this order; the first failure is the reason:
 * <ol>
 * <li><b>Privacy</b>: title, body, every quote and every blocker must hold no
 * {@code <private} (any case) and nothing {@link Redactor#defaults()} would change, i.e.
 * no private section and no secret shape. Else
 * {@code "privacy: <private> tag in <where>"} or {@code "privacy: secret in <where>"},
 * where is {@code title}, {@code body}, {@code quote N} or {@code blocker N} (1-based).
 * Checked first, so a candidate holding a secret is always refused as such, whatever else
 * is wrong with it. The reason never holds the text.</li>
 * <li><b>Title</b>: line breaks (and the whitespace around them) become one space, then
 * it is stripped; blank → {@code "blank title"}.</li>
 * <li><b>Body</b>: blank → {@code "blank body"}.</li>
 * <li><b>Quotes</b>: none → {@code "no quotes"}; more than {@value #MAX_QUOTES} →
 * {@code "too many quotes: N (max
 *       20)"}; a field other than {@code prompt, reply, tool_input, tool_response} →
 * {@code "quote N: unknown field
 *       F"}; longer than {@value #MAX_QUOTE_CHARS} characters →
 * {@code "quote N too long: L chars (max 1000)"}. Quotes are never altered: the aligner
 * must find them as they are.</li>
 * <li><b>Task</b> (kind TASK): no task fields → {@code "task without task fields"}; the
 * status, trimmed and lower case with {@code -} or space read as {@code _} and
 * {@code canceled} as {@code cancelled}, must be one of
 * {@code pending, in_progress, blocked, done, cancelled} (else
 * {@code "unknown task status: S"}); a priority, when given, one of
 * {@code low, medium, high, critical} (else {@code "unknown task priority: P"}); blockers
 * are stripped, blank ones dropped, repeats dropped; blocked without blockers →
 * {@code "blocked task without
 *       blockers"}. Any other status keeps no blockers (dropped: a done task has none,
 * and the task model keeps blockers only while blocked). A non-TASK candidate's task
 * fields are dropped.</li>
 * </ol>
 * Corrections, applied to a candidate that passed: a title longer than
 * {@value #MAX_TITLE_CHARS} characters is cut to {@value #MAX_TITLE_CHARS} ending in
 * {@code …}; a body longer than {@value #MAX_BODY_CHARS} characters is cut the same way
 * to {@value #MAX_BODY_CHARS}. Shortening, not refusal, because an exchange's body is a
 * whole prompt and reply, routinely longer than that, and its quotes and canonical key
 * (computed from the full text) are unaffected.
 *
 * <p>
 * Duplicates are not detected here: that needs the database.
 * {@link #canonicalKey(Candidate)} gives the key they are detected by, and the entry id
 * is derived from it, so a repeated claim gets the same entry id.
 */
public final class CandidateValidator {

    public static final int MAX_TITLE_CHARS = 200;

    public static final int MAX_BODY_CHARS = 8_000;

    public static final int MAX_QUOTES = 20;

    public static final int MAX_QUOTE_CHARS = 1_000;

    private static final int ID_HEX_CHARS = 32;

    private static final int MAX_ECHO_CHARS = 40;

    private static final Set<String> FIELDS = Set.of(SourceText.PROMPT, SourceText.REPLY, SourceText.TOOL_INPUT,
            SourceText.TOOL_RESPONSE);

    private static final Set<String> STATUSES = Set.of("pending", "in_progress", "blocked", "done", "cancelled");

    private static final Set<String> PRIORITIES = Set.of("low", "medium", "high", "critical");

    private static final Pattern LINE_BREAKS = Pattern.compile("\\s*\\R\\s*");

    private static final String PRIVATE_TAG = "<private";

    private final Redactor redactor = Redactor.defaults();

    public ValidationOutcome validate(Candidate candidate) {
        Objects.requireNonNull(candidate, "candidate");
        String privacy = privacyProblem(candidate);
        if (privacy != null) {
            return new ValidationOutcome.Rejected(candidate.candidateId(), "privacy: " + privacy);
        }
        String title = LINE_BREAKS.matcher(candidate.title()).replaceAll(" ").strip();
        if (title.isEmpty()) {
            return new ValidationOutcome.Rejected(candidate.candidateId(), "blank title");
        }
        if (candidate.body().isBlank()) {
            return new ValidationOutcome.Rejected(candidate.candidateId(), "blank body");
        }
        String quoteProblem = quoteProblem(candidate.quotes());
        if (quoteProblem != null) {
            return new ValidationOutcome.Rejected(candidate.candidateId(), quoteProblem);
        }
        TaskFields task = null;
        if (candidate.kind() == CandidateKind.TASK) {
            if (candidate.task() == null) {
                return new ValidationOutcome.Rejected(candidate.candidateId(), "task without task fields");
            }
            String status = status(candidate.task().status());
            if (status == null) {
                return new ValidationOutcome.Rejected(candidate.candidateId(),
                        "unknown task status: " + echo(candidate.task().status()));
            }
            String priority = candidate.task().priority();
            if (priority != null) {
                priority = priority.strip().toLowerCase(Locale.ROOT);
                if (!PRIORITIES.contains(priority)) {
                    return new ValidationOutcome.Rejected(candidate.candidateId(),
                            "unknown task priority: " + echo(candidate.task().priority()));
                }
            }
            List<String> blockers = blockers(candidate.task().blockers());
            if (status.equals("blocked") && blockers.isEmpty()) {
                return new ValidationOutcome.Rejected(candidate.candidateId(), "blocked task without blockers");
            }
            task = new TaskFields(status, priority, status.equals("blocked") ? blockers : List.of(),
                    candidate.task().source());
        }

        String key = canonicalKey(candidate);
        return new ValidationOutcome.Accepted(new EntryDraft(entryId(candidate.kind(), candidate.project(), key),
                candidate.candidateId(), candidate.kind(), candidate.project(), candidate.sessionId(), candidate.ts(),
                shorten(title, MAX_TITLE_CHARS), shorten(candidate.body(), MAX_BODY_CHARS), task, key,
                candidate.quotes()));
    }

    /**
     * The key duplicates are found by:
     * {@code CanonicalKeys.key(kind + ":" + project, text)}, where text is
     * <ul>
     * <li>for an exchange, its body (its title, the prompt's first line, repeats too
     * often);</li>
     * <li>for a task, its title, status and the event of its first quote: each statement
     * of a task is its own record (a to-do item goes pending → in progress → completed
     * across calls of one list, and across sessions), while the task itself is one
     * entity, keyed by its title alone;</li>
     * <li>for work done, its title and the event of its first quote: two commits with the
     * same subject are two pieces of work;</li>
     * <li>for every other kind, the title.</li>
     * </ul>
     * Computed from the candidate as given, before any shortening.
     */
    public static String canonicalKey(Candidate candidate) {
        String text = switch (candidate.kind()) {
            case EXCHANGE -> candidate.body();
            case TASK -> candidate.title() + " | " + (candidate.task() == null ? "" : candidate.task().status()) + " | "
                    + firstEvent(candidate);
            case WORK -> candidate.title() + " | " + firstEvent(candidate);
            default -> candidate.title();
        };
        return CanonicalKeys.key(candidate.kind().key() + ":" + candidate.project(), text);
    }

    private static String firstEvent(Candidate candidate) {
        return candidate.quotes().isEmpty() ? "" : candidate.quotes().get(0).eventId();
    }

    private static String entryId(CandidateKind kind, String project, String canonicalKey) {
        return "ent_"
                + CanonicalKeys.sha256(kind.key() + "|" + project + "|" + canonicalKey).substring(0, ID_HEX_CHARS);
    }

    private String privacyProblem(Candidate candidate) {
        String problem = privacyProblem(candidate.title(), "title");
        if (problem == null) {
            problem = privacyProblem(candidate.body(), "body");
        }
        for (int i = 0; problem == null && i < candidate.quotes().size(); i++) {
            problem = privacyProblem(candidate.quotes().get(i).text(), "quote " + (i + 1));
        }
        if (candidate.kind() == CandidateKind.TASK && candidate.task() != null) {
            List<String> blockers = candidate.task().blockers();
            for (int i = 0; problem == null && i < blockers.size(); i++) {
                problem = privacyProblem(blockers.get(i), "blocker " + (i + 1));
            }
        }
        return problem;
    }

    private String privacyProblem(String text, String where) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.toLowerCase(Locale.ROOT).contains(PRIVATE_TAG)) {
            return "<private> tag in " + where;
        }
        if (!redactor.redact(text).equals(text)) {
            return "secret in " + where;
        }
        return null;
    }

    private static String quoteProblem(List<Quote> quotes) {
        if (quotes.isEmpty()) {
            return "no quotes";
        }
        if (quotes.size() > MAX_QUOTES) {
            return "too many quotes: " + quotes.size() + " (max " + MAX_QUOTES + ")";
        }
        for (int i = 0; i < quotes.size(); i++) {
            Quote quote = quotes.get(i);
            if (!FIELDS.contains(quote.field())) {
                return "quote " + (i + 1) + ": unknown field " + echo(quote.field());
            }
            if (quote.text().length() > MAX_QUOTE_CHARS) {
                return "quote " + (i + 1) + " too long: " + quote.text().length() + " chars (max " + MAX_QUOTE_CHARS
                        + ")";
            }
        }
        return null;
    }

    private static String status(String raw) {
        String status = raw.strip().toLowerCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        if (status.equals("canceled")) {
            status = "cancelled";
        }
        return STATUSES.contains(status) ? status : null;
    }

    private static List<String> blockers(List<String> raw) {
        Set<String> out = new LinkedHashSet<>();
        for (String blocker : raw) {
            if (blocker != null && !blocker.isBlank()) {
                out.add(blocker.strip());
            }
        }
        return List.copyOf(new ArrayList<>(out));
    }

    private static String echo(String value) {
        return value.length() <= MAX_ECHO_CHARS ? value : value.substring(0, MAX_ECHO_CHARS) + "…";
    }

    /**
     * Head of {@code text} and {@code …}, at most {@code max} characters, never splitting
     * a surrogate pair.
     */
    private static String shorten(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int cut = max - 1;
        if (Character.isLowSurrogate(text.charAt(cut)) && Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, cut) + "…";
    }

}
