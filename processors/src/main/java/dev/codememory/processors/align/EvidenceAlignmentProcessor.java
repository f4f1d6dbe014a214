package dev.codememory.processors.align;

import dev.codememory.config.graduate.AlignmentOutcome;
import dev.codememory.config.graduate.EntryDraft;
import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.graduate.SourceTextLookup;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.batch.infrastructure.item.ItemProcessor;

/**
 * L3: the pipeline, not the extractor, finds each quote of an entry in its source text.
 * Every quote must align for the entry to be verified; the reason names the first quote
 * that did not.
 */
public class EvidenceAlignmentProcessor implements ItemProcessor<EntryDraft, AlignmentOutcome> {

    private final EvidenceAligner aligner;

    private final SourceTextLookup sources;

    public EvidenceAlignmentProcessor(EvidenceAligner aligner, SourceTextLookup sources) {
        this.aligner = aligner;
        this.sources = sources;
    }

    @Override
    public AlignmentOutcome process(EntryDraft entry) {
        List<EvidenceSpan> spans = new ArrayList<>();
        String failure = null;
        List<Quote> quotes = entry.quotes();
        if (quotes.isEmpty()) {
            failure = "no quotes to align";
        }
        for (int i = 0; i < quotes.size(); i++) {
            Quote q = quotes.get(i);
            String source = sources.text(q.eventId(), q.field());
            if (source == null) {
                failure = failure != null ? failure
                        : "quote " + i + ": source " + q.eventId() + "/" + q.field() + " not found";
                continue;
            }
            Optional<Alignment> found = aligner.align(source, q.text());
            if (found.isEmpty()) {
                failure = failure != null ? failure : "quote " + i + ": not found in " + q.eventId() + "/" + q.field();
                continue;
            }
            Alignment a = found.get();
            spans.add(new EvidenceSpan(entry.entryId(), i, q.eventId(), q.field(), a.start(), a.end(), a.confidence(),
                    a.method().name().toLowerCase(Locale.ROOT), CanonicalKeys.sha256(q.text()).substring(0, 16)));
        }
        return new AlignmentOutcome(entry.entryId(), spans, failure);
    }

}
