package dev.codememory.retrieval.context;

import java.util.List;
import java.util.Optional;

/**
 * Where {@link PromptContextBuilder} gets layers 2 and 3, implemented by the caller over
 * its store. It is asked only for what will be shown: the timeline of at most three hits,
 * or the details of the best one, and only when the budget has room for them.
 */
public interface DisclosureSource {

    /**
     * The events around the memory's source in its session, oldest first: up to
     * {@code window} before the first source event, the source events (marked
     * {@link TimelineLine#source()}), up to {@code window} after the last. Empty when
     * unknown.
     */
    List<TimelineLine> timeline(String memoryId, int window);

    /** The memory in full, or empty when it is gone. */
    Optional<MemoryDetail> details(String memoryId);

    /**
     * The texts {@link AnswerLines} looks for answers in: each memory's own title and
     * body (provenance null) and every field of the given source events of it; what is
     * gone is left out.
     * @param eventsByMemory memory id → the source events to read, best first
     */
    default List<AnswerLines.Source> answerSources(java.util.Map<String, List<String>> eventsByMemory) {
        return List.of();
    }

}
