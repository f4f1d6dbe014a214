package dev.codememory.config.distill;

import dev.codememory.config.graduate.EvidenceSpan;
import dev.codememory.config.graduate.Quote;
import java.util.List;
import java.util.Objects;

/**
 * A session the distiller is done with under its version: the memories its proven claims
 * make (none when it was skipped or gave up), and the paragraph of proven summary
 * sentences its session summary gains (null when there is none).
 */
public record DistillOutcome(String sessionId, String version, List<DistilledMemory> memories, Paragraph paragraph) {

    public DistillOutcome {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(version, "version");
        memories = List.copyOf(memories);
    }

    public DistillOutcome(String sessionId, String version, List<DistilledMemory> memories) {
        this(sessionId, version, memories, null);
    }

    /**
     * A line of proven sentences for the session summary, with their quotes and the spans
     * found for them (each span's entry id and index are the summary's to give).
     */
    public record Paragraph(String line, List<Quote> quotes, List<EvidenceSpan> spans) {

        /** How the line begins in the summary. */
        public static final String LABEL = "In its own words: ";

        public Paragraph {
            Objects.requireNonNull(line, "line");
            quotes = List.copyOf(quotes);
            spans = List.copyOf(spans);
        }

    }

}
