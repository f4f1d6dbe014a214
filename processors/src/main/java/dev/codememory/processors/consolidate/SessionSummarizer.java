package dev.codememory.processors.consolidate;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SessionInfo;
import dev.codememory.config.graduate.Turn;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A summary memory per finished session: what was asked, what was decided, which files changed and what was
 * left open. It is a candidate like any other — its quotes are the quotes of the claims it names (and the first
 * prompt), so validation and alignment check it the same way — and it is produced only once the session ended.
 */
public class SessionSummarizer {

    public static final String NAME = "summary-v1";
    private static final int MAX_ITEMS = 8;
    private static final int MAX_ITEM_CHARS = 160;
    private static final Set<String> EDIT_TOOLS = Set.of("Edit", "MultiEdit", "Write", "NotebookEdit");

    /** The summary candidate, or null when the session has not ended or holds nothing worth summarising. */
    public Candidate summarize(SessionInfo session, List<Turn> turns, List<Observation> observations,
            List<Candidate> claims) {
        if (session.endedAt() == null || (turns.isEmpty() && observations.isEmpty())) {
            return null;
        }
        List<Quote> quotes = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        List<String> asked = new ArrayList<>();
        for (Turn t : turns) {
            if (!t.promptText().isBlank() && asked.size() < MAX_ITEMS) {
                asked.add(shorten(firstLine(t.promptText())));
            }
        }
        section(body, "Asked", asked);
        Turn firstPrompt = turns.stream().filter(t -> !t.promptText().isBlank()).findFirst().orElse(null);
        if (firstPrompt != null) {
            quotes.add(new Quote(firstPrompt.promptEventId(), "prompt", shorten(firstLine(firstPrompt.promptText()))));
        }
        section(body, "Decided", titles(claims, CandidateKind.DECISION, quotes));
        section(body, "Preferences stated", titles(claims, CandidateKind.PREFERENCE, quotes));
        Set<String> changed = new LinkedHashSet<>();
        for (Observation o : observations) {
            if (EDIT_TOOLS.contains(o.tool()) && !o.failed()) {
                changed.addAll(o.files());
            }
        }
        section(body, "Changed", changed.stream().limit(MAX_ITEMS * 2L).toList());
        List<String> open = new ArrayList<>();
        for (Candidate c : claims) {
            if (c.kind() == CandidateKind.TASK && c.task() != null
                    && !Set.of("done", "cancelled").contains(c.task().status().toLowerCase(Locale.ROOT))
                    && open.size() < MAX_ITEMS) {
                open.add(shorten(c.title()) + " (" + c.task().status() + ")");
                quotes.add(c.quotes().get(0));
            }
        }
        section(body, "Left open", open);
        long failures = observations.stream().filter(Observation::failed).count();
        if (failures > 0) {
            body.append("Tool failures: ").append(failures).append('\n');
        }
        if (quotes.isEmpty()) {
            return null;
        }
        String title = "Session " + session.startedAt().toLocalDate() + ": "
                + (asked.isEmpty() ? "tool work" : asked.get(0));
        String id = "cand_" + CanonicalKeys.sha256("summary|" + session.sessionId() + "|" + session.lastSeq())
                .substring(0, 32);
        return new Candidate(id, CandidateKind.SUMMARY, session.sessionId(), session.project(), session.endedAt(),
                shorten(title), body.toString().strip(), null, dedupe(quotes), NAME);
    }

    private static List<String> titles(List<Candidate> claims, CandidateKind kind, List<Quote> quotes) {
        List<String> titles = new ArrayList<>();
        for (Candidate c : claims) {
            if (c.kind() == kind && titles.size() < MAX_ITEMS) {
                titles.add(shorten(c.title()));
                quotes.add(c.quotes().get(0));
            }
        }
        return titles;
    }

    private static void section(StringBuilder body, String heading, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        body.append(heading).append(":\n");
        for (String item : items) {
            body.append("- ").append(item).append('\n');
        }
    }

    /** Each quote once, in first-seen order, at most 20 (a prompt is often both asked and a stated claim). */
    static List<Quote> dedupe(List<Quote> quotes) {
        List<Quote> distinct = new ArrayList<>(new LinkedHashSet<>(quotes));
        return distinct.subList(0, Math.min(distinct.size(), 20));
    }

    private static String firstLine(String text) {
        String stripped = text.strip();
        int nl = stripped.indexOf('\n');
        return nl < 0 ? stripped : stripped.substring(0, nl).strip();
    }

    private static String shorten(String s) {
        if (s.length() <= MAX_ITEM_CHARS) {
            return s;
        }
        int end = MAX_ITEM_CHARS;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end).strip();
    }
}
