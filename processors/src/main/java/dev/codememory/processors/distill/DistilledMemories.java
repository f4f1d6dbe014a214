package dev.codememory.processors.distill;

import dev.codememory.config.distill.DistillOutcome;
import dev.codememory.config.distill.DistillSession;
import dev.codememory.config.distill.DistilledMemory;
import dev.codememory.config.distill.ProvenClaim;
import dev.codememory.config.distill.SessionText;
import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.config.graduate.Quote;
import dev.codememory.processors.align.Alignment;
import dev.codememory.processors.align.EvidenceAligner;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Proven claims as memories of their kinds: learned, gotcha and how-to are insights,
 * decision a decision (its reason in the body), fact a fact; summary sentences make no
 * memory of their own. The title is the claim (a gotcha and a how-to say so), the entry
 * id a hash of the session, kind and claim, so the same claim is the same memory. Each
 * quote is aligned again in its source for its span: a claim whose quote is no longer
 * there (its event forgotten since) makes no memory.
 */
public final class DistilledMemories {

    private final EvidenceAligner aligner;

    public DistilledMemories(EvidenceAligner aligner) {
        this.aligner = aligner;
    }

    public List<DistilledMemory> of(DistillSession session, List<ProvenClaim> claims) {
        List<DistilledMemory> memories = new ArrayList<>();
        for (ProvenClaim claim : claims) {
            String type = entryType(claim.kind());
            if (type == null) {
                continue;
            }
            String entryId = CanonicalKeys
                .sha256("distill|" + session.sessionId() + "|" + claim.kind() + "|"
                        + CanonicalKeys.normalize(claim.text()))
                .substring(0, 32);
            List<EvidenceSpan> spans = spans(entryId, claim.quotes(), session.texts());
            if (spans == null) {
                continue;
            }
            String body = claim.kind().equals("decision") && !claim.reason().isEmpty()
                    ? claim.text() + "\nBecause: " + claim.reason() : claim.text();
            memories.add(new DistilledMemory(entryId, type, session.project(), session.sessionId(), session.endedAt(),
                    title(claim), body, CanonicalKeys.key(type + ":" + session.project(), claim.text()), claim.quotes(),
                    spans));
        }
        return memories;
    }

    static final int PARAGRAPH_SENTENCES = 3;

    static final int PARAGRAPH_CHARS = 500;

    /**
     * The session's proven summary sentences (at most {@value #PARAGRAPH_SENTENCES},
     * within {@value #PARAGRAPH_CHARS} characters) as one line for its summary, with
     * their quotes and spans; null when there is none.
     */
    public DistillOutcome.Paragraph paragraph(DistillSession session, List<ProvenClaim> claims) {
        StringBuilder line = new StringBuilder(DistillOutcome.Paragraph.LABEL);
        List<Quote> quotes = new ArrayList<>();
        List<EvidenceSpan> spans = new ArrayList<>();
        int sentences = 0;
        for (ProvenClaim claim : claims) {
            if (!claim.kind().equals("summary") || sentences == PARAGRAPH_SENTENCES
                    || line.length() + claim.text().length() + 2 > PARAGRAPH_CHARS) {
                continue;
            }
            List<EvidenceSpan> found = spans("", claim.quotes(), session.texts());
            if (found == null) {
                continue;
            }
            String sentence = claim.text().endsWith(".") || claim.text().endsWith("!") || claim.text().endsWith("?")
                    ? claim.text() : claim.text() + ".";
            line.append(sentences == 0 ? "" : " ").append(sentence);
            quotes.addAll(claim.quotes());
            spans.addAll(found);
            sentences++;
        }
        return sentences == 0 ? null : new DistillOutcome.Paragraph(line.toString(), quotes, spans);
    }

    /** The memory kind a claim kind becomes, or null for a summary sentence. */
    static String entryType(String kind) {
        return switch (kind) {
            case "learned", "gotcha", "how-to" -> "insight";
            case "decision" -> "decision";
            case "fact" -> "fact";
            default -> null;
        };
    }

    private static String title(ProvenClaim claim) {
        return switch (claim.kind()) {
            case "gotcha" -> "Gotcha: " + claim.text();
            case "how-to" -> "How to: " + claim.text();
            default -> claim.text();
        };
    }

    private List<EvidenceSpan> spans(String entryId, List<Quote> quotes, List<SessionText> texts) {
        List<EvidenceSpan> spans = new ArrayList<>();
        for (int i = 0; i < quotes.size(); i++) {
            Quote quote = quotes.get(i);
            Optional<Alignment> at = Optional.empty();
            for (SessionText text : texts) {
                if (text.eventId().equals(quote.eventId()) && text.field().equals(quote.field())) {
                    at = aligner.align(text.text(), quote.text());
                    break;
                }
            }
            if (at.isEmpty()) {
                return null;
            }
            Alignment a = at.get();
            spans.add(new EvidenceSpan(entryId, i, quote.eventId(), quote.field(), a.start(), a.end(), a.confidence(),
                    a.method().name().toLowerCase(Locale.ROOT), CanonicalKeys.sha256(quote.text()).substring(0, 16)));
        }
        return spans;
    }

}
