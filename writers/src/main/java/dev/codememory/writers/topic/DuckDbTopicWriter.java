package dev.codememory.writers.topic;

import dev.codememory.config.db.Transactions;
import dev.codememory.config.topic.TopicMemory;
import dev.codememory.config.topic.TopicOutcome;
import dev.codememory.writers.graduation.ComposedEntries;
import dev.codememory.writers.staging.Staging;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes each project's topics ({@link ComposedEntries}: stored verified with copies of
 * the cited memories' spans) and supersedes the earlier topics they replace. An unchanged
 * topic has the same id and is not written again. Every project handled gets its stage
 * mark, with or without topics.
 */
public class DuckDbTopicWriter implements ItemWriter<TopicOutcome> {

    public static final String STAGE = "topics";

    private static final String STAGED = "stage_topic";

    private final Supplier<DuckDBConnection> connections;

    public DuckDbTopicWriter(Supplier<DuckDBConnection> connections) {
        this.connections = connections;
    }

    @Override
    public void write(Chunk<? extends TopicOutcome> chunk) {
        Transactions.inTransaction(connections, () -> "write the topics of " + chunk.size() + " projects", c -> {
            stage(c, chunk);
            ComposedEntries.store(c, STAGED, "topic");
            ComposedEntries.mark(c, STAGED + "_marks", STAGE);
            return null;
        });
    }

    private static void stage(DuckDBConnection c, Chunk<? extends TopicOutcome> chunk) throws SQLException {
        List<TopicMemory> topics = new ArrayList<>();
        try (DuckDBAppender replaced = Staging.table(c, STAGED + "_replaced", "old_id VARCHAR, new_id VARCHAR");
                DuckDBAppender marks = Staging.table(c, STAGED + "_marks", "subject_id VARCHAR")) {
            for (TopicOutcome outcome : chunk) {
                topics.addAll(outcome.topics());
                for (TopicOutcome.Replaced r : outcome.replaced()) {
                    replaced.beginRow().append(r.oldId());
                    if (r.newId() == null) {
                        replaced.appendNull();
                    }
                    else {
                        replaced.append(r.newId());
                    }
                    replaced.endRow();
                }
                marks.beginRow().append(outcome.mark()).endRow();
            }
        }
        ComposedEntries.stage(c, STAGED, topics);
    }

}
