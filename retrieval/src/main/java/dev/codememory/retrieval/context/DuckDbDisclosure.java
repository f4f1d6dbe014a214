package dev.codememory.retrieval.context;

import dev.codememory.capture.guard.Provenance;
import dev.codememory.config.db.DuckDb;
import dev.codememory.readers.align.SessionSourceTexts;
import dev.codememory.retrieval.citation.CitationQueries;
import dev.codememory.retrieval.citation.CitedMemory;
import dev.codememory.retrieval.citation.CitedSpan;
import dev.codememory.retrieval.citation.ContextEvent;
import dev.codememory.retrieval.citation.SourceField;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Layers 2 and 3 of the injected context, read on demand from the open database through
 * the same reads as {@code show}: a memory's source events with their neighbours, and its
 * text with the quoted evidence.
 */
public final class DuckDbDisclosure implements DisclosureSource {

    private final DuckDb.Session session;

    private final Map<String, String> citationOfMemory;

    DuckDbDisclosure(DuckDb.Session session, Map<String, String> citationOfMemory) {
        this.session = session;
        this.citationOfMemory = citationOfMemory;
    }

    @Override
    public List<TimelineLine> timeline(String memoryId, int window) {
        try (Connection c = session.connection()) {
            List<TimelineLine> lines = new ArrayList<>();
            for (ContextEvent e : CitationQueries.sourceContext(c, memoryId)) {
                if (e.isWork()) { // session start/end and other markers say nothing about
                                  // the work
                    lines.add(e.tool() == null ? new TimelineLine(e.ts(), role(e.eventType()), e.text(), e.source())
                            : new TimelineLine(e.ts(), TimelineLine.Role.TOOL, named(e.tool(), e.toolInput()),
                                    e.source(), e.toolResponse()));
                }
            }
            return lines;
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot read the timeline of " + memoryId + ": " + e.getMessage(), e);
        }
    }

    /** What a tool call's input says first, in this order: the rest is not named. */
    private static final List<String> NAMING_FIELDS = List.of("command", "file_path", "notebook_path", "path", "url",
            "pattern", "query", "subject", "description", "prompt");

    /**
     * A tool call named, not dumped: the tool and the one input field that says what it
     * did ({@code Bash: npm test}, {@code Edit src/App.java}); the tool alone when none
     * of those fields is there or the input is not a JSON object.
     */
    public static String named(String tool, String input) {
        if (input == null || input.isBlank()) {
            return tool;
        }
        Object parsed;
        try {
            parsed = dev.codememory.config.json.Json.parse(input);
        }
        catch (RuntimeException notJson) {
            return tool;
        }
        if (parsed instanceof Map<?, ?> fields) {
            for (String field : NAMING_FIELDS) {
                if (fields.get(field) instanceof String value && !value.isBlank()) {
                    return tool + ("command".equals(field) ? ": " : " ") + value.strip();
                }
            }
        }
        return tool;
    }

    @Override
    public List<AnswerLines.Source> answerSources(Map<String, List<String>> eventsByMemory) {
        try (Connection c = session.connection()) {
            List<AnswerLines.Source> out = new ArrayList<>();
            Map<String, List<SourceField>> fields = new java.util.HashMap<>();
            for (SourceField f : CitationQueries.sourceFields(c,
                    eventsByMemory.values().stream().flatMap(List::stream).distinct().toList())) {
                fields.computeIfAbsent(f.eventId(), k -> new ArrayList<>()).add(f);
            }
            eventsByMemory.forEach((memory, events) -> events.forEach(event -> {
                for (SourceField f : fields.getOrDefault(event, List.of())) {
                    out.add(new AnswerLines.Source(memory, Provenance.of(f.field(), f.tool()), f.text(),
                            f.tool() != null));
                }
            }));
            // the memory's own text last: of equal lines, the source's words are shown
            CitationQueries.recordedTexts(c, eventsByMemory.keySet())
                .forEach((memory, text) -> out.add(new AnswerLines.Source(memory, null, text, false)));
            return out;
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot read the sources of the answers: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<MemoryDetail> details(String memoryId) {
        String citation = citationOfMemory.get(memoryId);
        if (citation == null) {
            return Optional.empty();
        }
        try (Connection c = session.connection()) {
            Optional<CitedMemory> memory = CitationQueries.memory(c, citation);
            if (memory.isEmpty()) {
                return Optional.empty();
            }
            List<MemoryDetail.Evidence> quotes = new ArrayList<>();
            for (CitedSpan s : CitationQueries.spans(c, memoryId, new SessionSourceTexts(session::connection))) {
                if (s.quote() != null) {
                    quotes.add(new MemoryDetail.Evidence(s.quote(), Provenance.of(s.field(), s.tool())));
                }
            }
            return Optional.of(new MemoryDetail(memory.get().title(), memory.get().body(),
                    "preference".equals(memory.get().kind()), quotes));
        }
        catch (SQLException e) {
            throw new IllegalStateException("cannot read the details of " + memoryId + ": " + e.getMessage(), e);
        }
    }

    private static TimelineLine.Role role(String eventType) {
        return switch (eventType) {
            case "UserPromptSubmit" -> TimelineLine.Role.USER;
            case "Stop", "SubagentStop" -> TimelineLine.Role.ASSISTANT;
            default -> TimelineLine.Role.TOOL;
        };
    }

}
