package dev.codememory.config.topic;

import java.util.List;
import java.util.Objects;

/**
 * What the topic stage made of a project at one state of its memories: its topics (an
 * unchanged topic keeps its id), and which earlier topics they replace.
 *
 * @param replaced earlier active topics that are not among {@code topics}, each with the
 * topic that takes its place (null when none does: its work no longer forms a topic)
 */
public record TopicOutcome(String project, String mark, List<TopicMemory> topics, List<Replaced> replaced) {

    public TopicOutcome {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(mark, "mark");
        topics = List.copyOf(topics);
        replaced = List.copyOf(replaced);
    }

    /** An earlier topic and the one that replaces it, if any. */
    public record Replaced(String oldId, String newId) {

        public Replaced {
            Objects.requireNonNull(oldId, "oldId");
        }
    }
}
