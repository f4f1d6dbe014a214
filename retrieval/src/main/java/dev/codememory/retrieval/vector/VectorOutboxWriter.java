package dev.codememory.retrieval.vector;

import dev.codememory.config.db.Sql;
import dev.codememory.config.db.Transactions;
import dev.codememory.config.vector.BatchEmbedding;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.config.vector.VectorStore;
import dev.codememory.config.vector.VectorStoreException;
import dev.codememory.config.vector.VectorWork;
import dev.codememory.writers.staging.Staging;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * The single writer of the vector index: embeds a chunk's texts in one batch, upserts (or
 * deletes) by memory id, then marks the outbox rows done. If embedding fails, the chunk's
 * rows are marked failed with the error and one more attempt; they are retried on later
 * runs until {@link VectorOutbox#MAX_ATTEMPTS}, and stay visible as failed after that.
 *
 * <p>
 * If the store fails ({@link VectorStoreException}: a Milvus server that is down or
 * refuses the call), the fault is the store's, not the items': nothing is marked, the
 * exception fails the step, and the rows stay pending with their attempts untouched, so
 * the job's rerun writes them once the store is back. A row is marked done only after the
 * store acknowledged its write. Upserts are idempotent, so a chunk repeated after a crash
 * (or half written before the store went away) changes nothing.
 *
 * <p>
 * Memories of one project with the same text (the same to-do item in two sessions' lists,
 * the same commit subject twice) are embedded once and share the vector: within a chunk,
 * and across the chunks of one step through the last {@value #REUSED_TEXTS} texts
 * embedded.
 */
public class VectorOutboxWriter implements ItemWriter<VectorWork> {

    private static final Logger log = LoggerFactory.getLogger(VectorOutboxWriter.class);

    private static final int MAX_ERROR_CHARS = 500;

    static final int REUSED_TEXTS = 2_048;

    /** Project and text of the last memories embedded, to their vectors. */
    private final java.util.Map<TextKey, float[]> recent = new java.util.LinkedHashMap<>(256, 0.75f, true) {

        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<TextKey, float[]> eldest) {
            return size() > REUSED_TEXTS;
        }

    };

    private long embeddedTexts;

    private long reusedVectors;

    private record TextKey(String project, String text) {
    }

    private final Supplier<DuckDBConnection> connections;

    private final VectorStore store;

    private final BatchEmbedding embedding;

    public VectorOutboxWriter(Supplier<DuckDBConnection> connections, VectorStore store, BatchEmbedding embedding) {
        this.connections = connections;
        this.store = store;
        this.embedding = embedding;
    }

    @Override
    public void write(Chunk<? extends VectorWork> chunk) {
        List<VectorWork> upserts = new ArrayList<>();
        List<String> deletes = new ArrayList<>();
        for (VectorWork w : chunk) {
            if (w.op() == VectorWork.Op.UPSERT) {
                upserts.add(w);
            }
            else {
                deletes.add(w.memoryId());
            }
        }
        String error = null;
        try {
            if (!upserts.isEmpty()) {
                float[][] vectors = vectors(upserts);
                List<VectorRecord> records = new ArrayList<>(upserts.size());
                for (int i = 0; i < upserts.size(); i++) {
                    VectorWork w = upserts.get(i);
                    records.add(new VectorRecord(w.memoryId(), vectors[i], w.project(), w.kind(), w.status(), w.ts()));
                }
                store.upsert(records);
            }
            store.delete(deletes);
        }
        catch (VectorStoreException e) {
            log.warn("vector store failed on a chunk of {} items, left pending for the rerun: {}", chunk.size(),
                    e.getMessage());
            throw e;
        }
        catch (RuntimeException e) {
            error = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage());
            error = error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) : error;
            log.warn("vector chunk of {} items failed, will retry: {}", chunk.size(), error);
        }
        mark(chunk, error);
    }

    /**
     * One vector per upsert, in order: each distinct project and text embedded once,
     * unless a recent chunk embedded it already.
     */
    private float[][] vectors(List<VectorWork> upserts) {
        float[][] vectors = new float[upserts.size()][];
        java.util.Map<TextKey, List<Integer>> missing = new java.util.LinkedHashMap<>();
        for (int i = 0; i < upserts.size(); i++) {
            VectorWork w = upserts.get(i);
            TextKey key = new TextKey(w.project(), w.text());
            float[] known = recent.get(key);
            if (known != null) {
                vectors[i] = known;
            }
            else {
                missing.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
            }
        }
        if (!missing.isEmpty()) {
            List<TextKey> keys = new ArrayList<>(missing.keySet());
            float[][] embedded = embedding.embed(keys.stream().map(TextKey::text).toList());
            for (int k = 0; k < keys.size(); k++) {
                for (int i : missing.get(keys.get(k))) {
                    vectors[i] = embedded[k];
                }
                recent.put(keys.get(k), embedded[k]);
            }
            embeddedTexts += keys.size();
        }
        reusedVectors += upserts.size() - missing.size();
        return vectors;
    }

    /** Texts this writer sent to the model so far. */
    public long embeddedTexts() {
        return embeddedTexts;
    }

    /** Upserts that took the vector of an identical text instead of embedding it. */
    public long reusedVectors() {
        return reusedVectors;
    }

    private void mark(Chunk<? extends VectorWork> chunk, String error) {
        Transactions.inTransaction(connections, () -> "record vector outcomes", c -> {
            try (DuckDBAppender appender = Staging.table(c, "stage_outbox", "memory_id VARCHAR")) {
                for (VectorWork w : chunk) {
                    appender.beginRow().append(w.memoryId()).endRow();
                }
            }
            if (error == null) {
                Sql.update(c, """
                        UPDATE vector_outbox SET status = 'done', error = NULL, updated_at = now() AT TIME ZONE 'UTC'
                        WHERE embedding_version = ? AND memory_id IN (SELECT memory_id FROM temp.main.stage_outbox)""",
                        store.version().id());
            }
            else {
                Sql.update(c, """
                        UPDATE vector_outbox SET status = 'failed', attempts = attempts + 1, error = ?,
                            updated_at = now() AT TIME ZONE 'UTC'
                        WHERE embedding_version = ? AND memory_id IN (SELECT memory_id FROM temp.main.stage_outbox)""",
                        error, store.version().id());
            }
            return null;
        });
    }

}
