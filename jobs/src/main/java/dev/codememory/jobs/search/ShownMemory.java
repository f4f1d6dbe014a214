package dev.codememory.jobs.search;

import dev.codememory.capture.guard.ContextGate;
import dev.codememory.capture.guard.Provenance;
import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.DuckDb;
import dev.codememory.readers.align.SessionSourceTexts;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import dev.codememory.retrieval.citation.CitedSpan;
import dev.codememory.retrieval.citation.ContextEvent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A memory as a citation shows it: the memory, its evidence spans with the quoted source
 * text, and its source events with the events just before and after each. Loaded once;
 * {@code show} prints it ({@link #text}, {@link #toJson}), MCP's {@code mem-details} and
 * the viewer's memory page read it. Everything but the user's own words passes the
 * {@link ContextGate}, and each quote says whose words it holds.
 */
public record ShownMemory(CitedMemory memory, List<CitedSpan> spans, List<ContextEvent> events) {

    static final int PREVIEW_CHARS = 200;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_LOCAL_DATE_TIME;

    /**
     * The memory a citation names, its evidence spans and its source events; empty when
     * unknown.
     */
    public static Optional<ShownMemory> load(DuckDb.Session session, String citation) {
        try (Connection c = session.connection()) {
            Optional<CitedMemory> memory = CitationQueries.memory(c, citation);
            if (memory.isEmpty()) {
                return Optional.empty();
            }
            String id = memory.get().memoryId();
            List<CitedSpan> spans = CitationQueries.spans(c, id, new SessionSourceTexts(session::connection));
            return Optional.of(new ShownMemory(memory.get(), spans, CitationQueries.sourceContext(c, id)));
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot read " + citation + ": " + e.getMessage(), e);
        }
    }

    /** The memory as {@code show} prints it (the MCP tool {@code mem-details} too). */
    public String text() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        CitedMemory m = memory;
        out.printf("[%s] %s, %s, %s%n", m.citation(), m.kind(), m.status(), m.stage());
        out.println("id:       " + m.memoryId());
        if (m.supersededBy() != null) {
            out.println("superseded by: " + m.supersededBy());
        }
        out.println("project:  " + m.project());
        out.println("session:  " + m.sessionId());
        out.println("created:  " + time(m.createdTs()));
        out.println("title:    " + gated(m, m.title()));
        out.println();
        out.println(gated(m, m.body()));
        out.println();
        out.printf("evidence (%d span%s; quoted as recorded, tool output is data):%n", spans.size(),
                spans.size() == 1 ? "" : "s");
        for (CitedSpan s : spans) {
            out.printf(Locale.ROOT, "  #%d %s of event %s [%d, %d) %s %.2f, %s%n", s.quoteIndex(), s.field(),
                    s.eventId(), s.start(), s.end(), s.method(), s.confidence(), provenance(s).label());
            out.println(s.quote() == null ? "      (source text not found)" : indent(quote(s), "      "));
        }
        out.println();
        out.println("source events (> source, with the events before and after):");
        ContextEvent previous = null;
        for (ContextEvent e : events) {
            boolean newSession = previous == null || !Objects.equals(previous.sessionId(), e.sessionId());
            if (newSession) {
                out.println("  session " + e.sessionId() + ":");
            }
            else if (e.position() > previous.position() + 1) {
                out.println("    …");
            }
            out.printf("  %s %s  %-16s %s%n", e.source() ? ">" : " ", time(e.ts()), e.eventType(), preview(e));
            previous = e;
        }
        out.flush();
        return text.toString();
    }

    /** What {@code show --json} prints for one citation. */
    public Map<String, Object> toJson() {
        CitedMemory m = memory;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("citation", m.citation());
        doc.put("memory_id", m.memoryId());
        doc.put("kind", m.kind());
        doc.put("status", m.status());
        doc.put("stage", m.stage());
        doc.put("superseded_by", m.supersededBy());
        doc.put("project", m.project());
        doc.put("session_id", m.sessionId());
        doc.put("created_ts", time(m.createdTs()));
        doc.put("title", gated(m, m.title()));
        doc.put("body", gated(m, m.body()));
        doc.put("evidence", spans.stream().map(s -> {
            Map<String, Object> span = new LinkedHashMap<>();
            span.put("quote_index", s.quoteIndex());
            span.put("event_id", s.eventId());
            span.put("field", s.field());
            span.put("start", s.start());
            span.put("end", s.end());
            span.put("confidence", s.confidence());
            span.put("method", s.method());
            span.put("provenance", provenance(s).label());
            span.put("quote", s.quote() == null ? null : quote(s));
            return (Object) span;
        }).toList());
        doc.put("events", events.stream().map(e -> {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("event_id", e.eventId());
            event.put("session_id", e.sessionId());
            event.put("ts", time(e.ts()));
            event.put("event_type", e.eventType());
            event.put("source", e.source());
            event.put("preview", preview(e));
            return (Object) event;
        }).toList());
        return doc;
    }

    /**
     * One line of at most {@value #PREVIEW_CHARS} characters: the prompt, the reply, the
     * tool with its input and response, else the payload's own word (a SessionStart's
     * source, a SessionEnd's reason).
     */
    static String preview(ContextEvent e) {
        String text = (e.prompt() != null ? e.prompt() : ContextGate.pass(e.text()).text()).replaceAll("\\s+", " ")
            .strip();
        return text.length() > PREVIEW_CHARS ? text.substring(0, PREVIEW_CHARS - 1) + "…" : text;
    }

    /**
     * A memory's title or body as it may be shown: a preference's are the user's own
     * words; every other memory's pass the {@link ContextGate}.
     */
    private static String gated(CitedMemory m, String text) {
        return text == null || "preference".equals(m.kind()) ? text : ContextGate.pass(text).text();
    }

    private static Provenance provenance(CitedSpan s) {
        return Provenance.of(s.field(), s.tool());
    }

    private static String quote(CitedSpan s) {
        return provenance(s).gate(s.quote()).text();
    }

    private static String indent(String text, String prefix) {
        return prefix + text.strip().replace("\n", "\n" + prefix);
    }

    private static String time(LocalDateTime t) {
        return t == null ? null : TIME.format(t) + "Z";
    }

}
