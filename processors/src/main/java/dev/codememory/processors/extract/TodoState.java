package dev.codememory.processors.extract;

import dev.codememory.config.graduate.Candidate;
import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Observation;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Claude's to-do list as it stands after a run of tool calls: {@link TodoLists} read in
 * time order, each item's last status kept. The same reading as the extractor's (one
 * owner of what a TodoWrite, TaskCreate or TaskUpdate means), without graduating
 * anything.
 */
public final class TodoState {

    private TodoState() {
    }

    /**
     * One item of the list.
     *
     * @param title the item's text, whitespace collapsed
     * @param status pending, in_progress, done or cancelled (dropped from the list)
     * @param eventId the event that last stated this status
     */
    public record Item(String title, String status, String eventId) {

        public Item {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(eventId, "eventId");
        }

        /** Pending or in progress. */
        public boolean open() {
            return "pending".equals(status) || "in_progress".equals(status);
        }
    }

    /**
     * Every item the task tools among {@code observations} (one session's, in time order)
     * have held, in the order each first appeared, with its last status.
     */
    public static List<Item> of(List<Observation> observations) {
        if (observations.isEmpty()) {
            return List.of();
        }
        Observation first = observations.get(0);
        CandidateSink sink = new CandidateSink(first.sessionId(), first.project(), "todo-state");
        TodoLists.extract(observations, sink);
        Map<String, Item> items = new LinkedHashMap<>();
        for (Candidate c : sink.candidates()) {
            if (c.kind() != CandidateKind.TASK || c.task() == null || c.quotes().isEmpty()) {
                continue;
            }
            items.put(CanonicalKeys.normalize(c.title()),
                    new Item(c.title(), c.task().status(), c.quotes().get(0).eventId()));
        }
        return List.copyOf(items.values());
    }

}
