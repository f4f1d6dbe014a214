package dev.codememory.config.topic;

import dev.codememory.config.graduate.Quote;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What a project's verified work holds for topics: its active decisions, work (commits,
 * pull requests), insights and tasks, each cited, and the topics written for it so far.
 *
 * @param mark the stage mark of this state of the project's memories: topics are worked
 * out again when it changes
 * @param members the memories topics are made of, in time order
 * @param topics the project's active topic memories, with the memories each cites
 */
public record TopicMaterial(String project, String mark, List<Member> members, List<Topic> topics) {

    /**
     * The version of the rules that group memories into topics and write them, part of
     * every topic stage mark: change it with those rules, and the next graduation works
     * out every project's topics again (an unchanged topic keeps its id).
     */
    public static final String RULES = "topics-3";

    public TopicMaterial {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(mark, "mark");
        members = List.copyOf(members);
        topics = List.copyOf(topics);
    }

    /**
     * A verified, active, cited memory that may belong to a topic.
     *
     * @param kind {@code decision}, {@code work}, {@code insight} or {@code task}
     * @param status a task's status ({@code pending}, {@code in_progress},
     * {@code blocked}, {@code done}); empty for other kinds
     * @param citation {@code mem:} and its code
     * @param quote its first quote
     */
    public record Member(String memoryId, String kind, String sessionId, LocalDateTime ts, String title, String body,
            String status, String citation, Quote quote) {

        public Member {
            Objects.requireNonNull(memoryId, "memoryId");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(ts, "ts");
            Objects.requireNonNull(title, "title");
            body = body == null ? "" : body;
            status = status == null ? "" : status;
            Objects.requireNonNull(citation, "citation");
            Objects.requireNonNull(quote, "quote");
        }
    }

    /** An active topic memory and the memories it cites. */
    public record Topic(String entryId, List<String> cites) {

        public Topic {
            Objects.requireNonNull(entryId, "entryId");
            cites = List.copyOf(cites);
        }
    }
}
