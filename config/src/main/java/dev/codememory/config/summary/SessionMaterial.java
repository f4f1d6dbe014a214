package dev.codememory.config.summary;

import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What a finished session left behind, each item backed by a verified, cited memory: the
 * raw material of its summary.
 *
 * @param goals the exchanges of the session's first prompts that asked for something, in
 * time order (a few)
 * @param work commits, pull requests and issues the session recorded, in time order
 * @param completed tasks the session finished (the statement that closed each), in time
 * order
 * @param fixes error → fix insights of the session, in time order
 * @param decisions decisions of the session (approved plans, the user's words), in time
 * order
 * @param open tasks whose latest statement is this session's and that are still open, in
 * time order
 * @param changed files the session edited, most edited first, each cited by its latest
 * edit
 */
public record SessionMaterial(String sessionId, String project, LocalDateTime startedAt, LocalDateTime endedAt,
        long lastSeq, List<Item> goals, List<Item> work, List<Item> completed, List<Item> fixes, List<Item> decisions,
        List<Item> open, List<Item> changed) {

    public SessionMaterial {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        goals = List.copyOf(goals);
        work = List.copyOf(work);
        completed = List.copyOf(completed);
        fixes = List.copyOf(fixes);
        decisions = List.copyOf(decisions);
        open = List.copyOf(open);
        changed = List.copyOf(changed);
    }

    /**
     * One line's worth: its text, the memory behind it with its citation and first quote.
     *
     * @param detail a short qualifier shown after the text (a task's status, a file's
     * edit count); empty for none
     */
    public record Item(String text, String detail, String memoryId, String citation, Quote quote) {

        public Item {
            Objects.requireNonNull(text, "text");
            detail = detail == null ? "" : detail;
            Objects.requireNonNull(memoryId, "memoryId");
            Objects.requireNonNull(citation, "citation");
            Objects.requireNonNull(quote, "quote");
        }
    }
}
