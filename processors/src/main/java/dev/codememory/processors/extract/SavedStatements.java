package dev.codememory.processors.extract;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceText;
import dev.codememory.config.graduate.Turn;
import dev.codememory.config.text.TextCuts;
import dev.codememory.processors.extract.ClaimRules.Claim;
import dev.codememory.processors.extract.ClaimRules.Speaker;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the user asked {@code mem-save} to remember: one memory of the kind the user's
 * words are, not an exchange. The statement is the saved text without a leading "remember
 * (that)", "note (that)" or "keep in mind (that)"; its kind is that of the first of its
 * sentences the claim rules read, as the user's words, as a preference, decision, task,
 * insight or fact ({@link ClaimRules}: "we always squash-merge" is a preference, "we
 * decided to …" a decision, "remind me to …" a task), and a fact when they read none of
 * them (a save is a statement the user wants kept, whatever its wording). The title is
 * the statement's first line (a task's, the task's title), the body the statement, the
 * one quote the statement itself (an excerpt when longer than 1,000 characters), so the
 * memory is verified against the words as saved.
 */
final class SavedStatements {

    /** A quote longer than this is cut to an excerpt (the validator's bound). */
    static final int MAX_QUOTE_CHARS = 1_000;

    private static final Pattern ASKS_TO_REMEMBER = Pattern.compile(
            "^(?:please\\s+)?(?:remember|note|keep in mind)(?:\\s+that\\b)?\\s*[:,\\-\u2013]?\\s*",
            Pattern.CASE_INSENSITIVE);

    /**
     * A saved statement the claim rules read as a fact or as nothing, but that says how
     * the work is done: a preference ("we always squash-merge", "we never push to main").
     */
    private static final Pattern HOW_WE_WORK = Pattern.compile("\\b(?:always|never|prefers?|preferred)\\b",
            Pattern.CASE_INSENSITIVE);

    private SavedStatements() {
    }

    static void extract(Turn turn, CandidateSink sink) {
        String statement = statement(turn.promptText());
        if (statement.isEmpty()) {
            return;
        }
        Claim claim = null;
        for (String sentence : TextCuts.sentences(statement)) {
            claim = ClaimRules.classify(sentence, Speaker.USER);
            if (claim != null) {
                break;
            }
        }
        CandidateKind kind = claim != null && claim.kind() != CandidateKind.FACT ? claim.kind()
                : HOW_WE_WORK.matcher(statement).find() ? CandidateKind.PREFERENCE : CandidateKind.FACT;
        String title = kind == CandidateKind.TASK ? claim.title()
                : TextCuts.shorten(TextCuts.firstLine(statement), RuleBasedExtractor.TITLE_MAX);
        String quote = statement.length() <= MAX_QUOTE_CHARS ? statement : TextCuts.excerpt(statement, false);
        sink.add(kind, turn.promptTs(), title, statement, kind == CandidateKind.TASK ? claim.task() : null,
                List.of(new Quote(turn.promptEventId(), SourceText.PROMPT, quote)));
    }

    /**
     * The saved text without the words that ask to remember it: part of the text as is.
     */
    static String statement(String saved) {
        String text = saved.strip();
        String statement = ASKS_TO_REMEMBER.matcher(text).replaceFirst("").strip();
        return statement.isEmpty() ? text : statement;
    }

}
