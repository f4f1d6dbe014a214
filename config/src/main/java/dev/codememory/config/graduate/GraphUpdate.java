package dev.codememory.config.graduate;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * What a consolidation stage writes for one subject (an entry or a session): task events
 * to append, entity rows to upsert, edge sets to clear and edges to add (in that order,
 * so a set can be replaced), and the mark that the stage handled the subject.
 */
public record GraphUpdate(String subjectId, String stage, List<TaskEventRow> events, List<EntityRow> entities,
        List<ReplacedEdgeSet> clearEdges, List<EdgeRow> addEdges, List<Supersession> supersessions) {

    public GraphUpdate {
        Objects.requireNonNull(subjectId, "subjectId");
        Objects.requireNonNull(stage, "stage");
        events = List.copyOf(events);
        entities = List.copyOf(entities);
        clearEdges = List.copyOf(clearEdges);
        addEdges = List.copyOf(addEdges);
        supersessions = List.copyOf(supersessions);
    }

    /** Only the stage mark: the stage looked at the subject and had nothing to write. */
    public static GraphUpdate markOnly(String subjectId, String stage) {
        return new GraphUpdate(subjectId, stage, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /**
     * {@code newerId} replaces {@code olderId}: the older entry is marked superseded,
     * never deleted.
     */
    public record Supersession(String olderId, String newerId, double similarity) {
    }

    /** An append-only task event, deduplicated by its key. */
    public record TaskEventRow(String dedupeKey, String eventType, String entityId, String payloadJson,
            LocalDateTime ts, String sourceEntry) {
    }

    /** The current state of a task, condition or artifact. */
    public record EntityRow(String entityId, String entityType, String canonicalKey, String project, String title,
            String status, String currentJson) {
    }

    public record EdgeRow(String srcType, String srcId, String relType, String dstType, String dstId, String metaJson) {
    }

    /** Every edge (src_id, rel_type) to remove before the replacements are written. */
    public record ReplacedEdgeSet(String srcId, String relType) {
    }
}
