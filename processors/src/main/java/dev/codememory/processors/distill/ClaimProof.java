package dev.codememory.processors.distill;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.config.distill.ProvenClaim;
import dev.codememory.config.distill.SessionText;
import dev.codememory.config.graduate.Quote;
import dev.codememory.processors.align.Alignment;
import dev.codememory.processors.align.EvidenceAligner;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every claim proven or dropped. A claim is kept only when, in this order:
 * <ol>
 * <li>its kind is one of {@link #KINDS} and its text a sentence of at most
 * {@value #MAX_TEXT_CHARS} characters ({@code malformed-claim},
 * {@code unknown-kind});</li>
 * <li>it has one to {@value #MAX_QUOTES} quotes ({@code no-quote}), each at least
 * {@value #MIN_QUOTE_CHARS} characters ({@code quote-too-short});</li>
 * <li>the evidence aligner finds every quote in the session's texts — first in the source
 * the quote names, else in any text of the session — exactly, across collapsed
 * whitespace, or in a fuzzy window of at least 0.85 similarity ({@code quote-not-found}:
 * a fabricated quote, or the model's own words);</li>
 * <li>it is a summary sentence, or at least one quote is the user's words or a tool's
 * text: Claude's replies alone are the session model's own account, hypotheses included,
 * and prove nothing but a sentence summing up what was said ({@code reply-only});</li>
 * <li>the redactor leaves its text and reason as they are ({@code secret});</li>
 * <li>the context gate withholds nothing of its text, its reason, or its quotes (the
 * user's words through {@link ContextGate#passUserText}): an instruction planted in tool
 * output stays an instruction when a model restates it, and evidence that is an
 * instruction proves nothing ({@code withheld});</li>
 * <li>no earlier claim of the answer says the same ({@code duplicate}).</li>
 * </ol>
 * A proven claim's quotes are the exact pieces of the sources the aligner found.
 * Stateless.
 */
public final class ClaimProof {

    public static final Set<String> KINDS = Set.of("learned", "decision", "gotcha", "fact", "how-to", "summary");

    static final int MAX_TEXT_CHARS = 400;

    static final int MAX_QUOTES = 5;

    static final int MIN_QUOTE_CHARS = 8;

    private final EvidenceAligner aligner;

    private final Redactor redactor;

    public ClaimProof(EvidenceAligner aligner, Redactor redactor) {
        this.aligner = aligner;
        this.redactor = redactor;
    }

    /** The claims proven, and the others counted by the reason they were dropped. */
    public record Proof(List<ProvenClaim> proven, Map<String, Integer> rejected) {
    }

    public Proof prove(List<Claim> claims, DistillSession session) {
        List<ProvenClaim> proven = new ArrayList<>();
        Map<String, Integer> rejected = new TreeMap<>();
        Set<String> said = new HashSet<>();
        for (Claim claim : claims) {
            Verdict verdict = prove(claim, session);
            if (verdict.claim() != null
                    && !said.add(verdict.claim().kind() + "|" + CanonicalKeys.normalize(claim.text()))) {
                verdict = Verdict.rejected("duplicate");
            }
            if (verdict.claim() != null) {
                proven.add(verdict.claim());
            }
            else {
                rejected.merge(verdict.reason(), 1, Integer::sum);
            }
        }
        return new Proof(List.copyOf(proven), rejected);
    }

    private record Verdict(ProvenClaim claim, String reason) {

        static Verdict rejected(String reason) {
            return new Verdict(null, reason);
        }

    }

    private Verdict prove(Claim claim, DistillSession session) {
        String kind = claim.kind().strip().toLowerCase(Locale.ROOT);
        String text = claim.text().strip();
        String reason = claim.reason().strip();
        if (text.isEmpty() || text.length() > MAX_TEXT_CHARS || reason.length() > MAX_TEXT_CHARS) {
            return Verdict.rejected("malformed-claim");
        }
        if (!KINDS.contains(kind)) {
            return Verdict.rejected("unknown-kind");
        }
        if (claim.quotes().isEmpty() || claim.quotes().size() > MAX_QUOTES) {
            return Verdict.rejected("no-quote");
        }
        List<Quote> quotes = new ArrayList<>();
        List<SessionText> sources = new ArrayList<>();
        for (Claim.ClaimQuote quote : claim.quotes()) {
            if (quote.text().strip().codePointCount(0, quote.text().strip().length()) < MIN_QUOTE_CHARS) {
                return Verdict.rejected("quote-too-short");
            }
            Optional<Found> found = find(quote, session.texts());
            if (found.isEmpty()) {
                return Verdict.rejected("quote-not-found");
            }
            quotes.add(found.get().quote());
            sources.add(found.get().source());
        }
        if (!kind.equals("summary") && sources.stream().allMatch(SessionText::isReply)) {
            return Verdict.rejected("reply-only");
        }
        if (!redactor.redact(text).equals(text) || !redactor.redact(reason).equals(reason)) {
            return Verdict.rejected("secret");
        }
        if (ContextGate.pass(text).withheld() > 0 || ContextGate.pass(reason).withheld() > 0) {
            return Verdict.rejected("withheld");
        }
        for (int i = 0; i < quotes.size(); i++) {
            String quoted = quotes.get(i).text();
            int withheld = "prompt".equals(sources.get(i).field()) ? ContextGate.passUserText(quoted).withheld()
                    : ContextGate.pass(quoted).withheld();
            if (withheld > 0) {
                return Verdict.rejected("withheld");
            }
        }
        return new Verdict(new ProvenClaim(kind, text, reason, quotes), null);
    }

    private record Found(Quote quote, SessionText source) {
    }

    /**
     * The quote in the source it names, else in the first text of the session that holds
     * it.
     */
    private Optional<Found> find(Claim.ClaimQuote quote, List<SessionText> texts) {
        if (quote.source() >= 1 && quote.source() <= texts.size()) {
            Optional<Found> named = found(quote.text(), texts.get(quote.source() - 1));
            if (named.isPresent()) {
                return named;
            }
        }
        for (SessionText text : texts) {
            Optional<Found> any = found(quote.text(), text);
            if (any.isPresent()) {
                return any;
            }
        }
        return Optional.empty();
    }

    private Optional<Found> found(String quote, SessionText source) {
        Optional<Alignment> at = aligner.align(source.text(), quote.strip());
        return at.map(a -> new Found(
                new Quote(source.eventId(), source.field(), source.text().substring(a.start(), a.end())), source));
    }

}
