package dev.codememory.config.team;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A memory another developer published, as the team store holds it: text that comes from
 * another person's machine, shown as data and labelled with its author.
 *
 * @param teamProject the project's key in the team store
 * @param citation the citation code on the publisher's machine (without {@code mem:}),
 * never null
 * @param author who published it ({@code code-memory.team.author} on their machine)
 */
public record TeamMemory(String memoryId, String teamProject, String kind, String title, String body, String citation,
        String author, LocalDateTime createdTs) {

    public TeamMemory {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(teamProject, "teamProject");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(citation, "citation");
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(createdTs, "createdTs");
        title = title == null ? "" : title;
        body = body == null ? "" : body;
    }

    /**
     * The searchable text: the title, then the body unless it already starts with the
     * title.
     */
    public String text() {
        return body.startsWith(title) ? body : title + "\n" + body;
    }

}
