package dev.codememory.config.team;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A verified memory on its way to the team store: what {@code --job=publish} reads from
 * DuckDB, checks and sends.
 *
 * @param project the local project (the git top level on this machine)
 * @param citation its stored citation code, without {@code mem:}
 * @param quotes the evidence the pipeline aligned, in quote order
 * @param sessionId the session it was recorded in (empty when not known)
 * @param cites for a memory composed from others (a topic), the verified, active ones it
 * cites, each with its own words and quotes; empty for any other
 */
public record SharedMemory(String memoryId, String project, String kind, String title, String body,
        LocalDateTime createdTs, String citation, List<SharedQuote> quotes, String sessionId,
        List<SharedMemory> cites) {

    /** The kinds that may be shared, as {@code entries.entry_type} spells them. */
    public static final Set<String> SHAREABLE_KINDS = Set.of("decision", "preference", "fact", "work", "insight",
            "topic");

    public SharedMemory {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(createdTs, "createdTs");
        Objects.requireNonNull(citation, "citation");
        title = title == null ? "" : title;
        body = body == null ? "" : body;
        quotes = quotes == null ? List.of() : List.copyOf(quotes);
        sessionId = sessionId == null ? "" : sessionId;
        cites = cites == null ? List.of() : List.copyOf(cites);
    }

    /** A memory that cites no others, its session not known. */
    public SharedMemory(String memoryId, String project, String kind, String title, String body,
            LocalDateTime createdTs, String citation, List<SharedQuote> quotes) {
        this(memoryId, project, kind, title, body, createdTs, citation, quotes, "", List.of());
    }

    /**
     * Whether it is composed from the memories it cites (its vector is of its own words).
     */
    public boolean composed() {
        return !cites.isEmpty();
    }

    /**
     * One evidence quote.
     *
     * @param field the source event's field it was found in ({@code prompt},
     * {@code reply}, {@code tool_input}, {@code tool_response}, …)
     * @param tool the tool of the source event, or null for prompts and replies
     */
    public record SharedQuote(int index, String field, String tool, String text) {

        public SharedQuote {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(text, "text");
        }
    }

}
