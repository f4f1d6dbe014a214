package dev.codememory.bench;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.processors.embed.MiniLmOnnxEmbedder;
import dev.codememory.writers.vector.DuckDbVectorStore;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.step.StepExecution;

/**
 * {@code bench.jar bench --embedding}: in one process, on the product's application
 * context, (1) 1,000 realistic memory texts through the whole embed step
 * ({@code --job=reindex}: outbox → reader → embed → DuckDB upsert → outbox marks), next
 * to the same texts on raw ONNX Runtime (same model, tokenizer and pooling, no DJL, no
 * database), and (2) DuckDB vector-store search latency at 10k and 100k vectors (p50, p95
 * of 200 filtered top-10 queries each).
 */
public class EmbeddingBench {

    private static final String[] SUBJECTS = { "the checkout service", "the billing job", "the search index",
            "the auth gateway", "the reports pipeline", "the inventory API", "the release process", "the CI build" };

    private static final String[] CLAIMS = {
            "We decided to keep %s on PostgreSQL and move analytics to DuckDB, because the nightly reports scan whole "
                    + "tables and columnar storage makes them ten times faster without another server to run.",
            "The root cause of the flaky tests in %s was a shared temporary folder; each test now gets its own, and the "
                    + "retry annotation was removed because it hid real failures for weeks.",
            "Preference: in %s use constructor injection, no wildcard imports, and keep methods under forty lines so "
                    + "reviews stay quick; formatting is checked in the validate phase.",
            "TODO: migrate %s to the new HTTP client before the old one loses support; blocked on PROJ-%d until the "
                    + "platform team publishes the shaded artifact.",
            "Asked why %s was slow under load: the connection pool had two connections while the scheduler ran eight "
                    + "jobs in parallel; raising the pool to ten fixed the p95 latency.", };

    private final JobRunner jobRunner;

    private final JobDatabase database;

    private final EmbeddingService embeddingService;

    public EmbeddingBench(JobRunner jobRunner, JobDatabase database, EmbeddingService embeddingService) {
        this.jobRunner = jobRunner;
        this.database = database;
        this.embeddingService = embeddingService;
    }

    public int run(PrintStream out, int texts) {
        List<String> corpus = corpus(texts);
        database.open();
        try {
            insertEntries(corpus);
        }
        finally {
            database.close();
        }
        if (!(embeddingService.embedder() instanceof MiniLmOnnxEmbedder embedder)) {
            out.println("the embedding bench compares against raw ONNX Runtime: run it with the default model");
            return 2;
        }
        // warm both paths once on a small slice
        embedder.embedRaw(corpus.subList(0, Math.min(64, corpus.size())));
        embedder.embed(corpus.subList(0, Math.min(64, corpus.size())));

        long rawStart = System.nanoTime();
        embedder.embedRaw(corpus);
        double rawSeconds = (System.nanoTime() - rawStart) / 1e9;

        JobExecution reindex = jobRunner.run("reindex");
        StepExecution step = reindex.getStepExecutions()
            .stream()
            .filter(s -> s.getStepName().equals("embedMemoriesStep"))
            .findFirst()
            .orElseThrow();
        double stepSeconds = java.time.Duration.between(step.getStartTime(), step.getEndTime()).toMillis() / 1000.0;

        long rawStart2 = System.nanoTime();
        embedder.embedRaw(corpus);
        double rawSeconds2 = (System.nanoTime() - rawStart2) / 1e9;
        double raw = Math.min(rawSeconds, rawSeconds2);

        out.printf("%nembedding: %d memory texts (~%d words each), %s%n", corpus.size(),
                corpus.get(0).split("\\s+").length, embeddingService.version().id());
        out.printf("  raw ONNX Runtime      %7.1f texts/s  (best of two runs: %.1f s, %.1f s)%n", corpus.size() / raw,
                rawSeconds, rawSeconds2);
        out.printf("  whole embed step      %7.1f texts/s  (%.1f s, %s, %d written)%n",
                step.getWriteCount() / stepSeconds, stepSeconds, reindex.getStatus(), step.getWriteCount());
        out.printf("  pipeline / raw        %7.0f %%%n",
                100.0 * (step.getWriteCount() / stepSeconds) / (corpus.size() / raw));

        mixedLengths(out, embedder, texts);

        database.open();
        try {
            for (int n : new int[] { 10_000, 100_000 }) {
                searchLatency(out, n);
            }
        }
        finally {
            database.close();
        }
        return reindex.getStatus().isUnsuccessful() ? 1 : 0;
    }

    private void searchLatency(PrintStream out, int n) {
        EmbeddingVersion version = new EmbeddingVersion("bench-random-" + n, 384, "none", 1);
        DuckDbVectorStore store = new DuckDbVectorStore(database.connections(), version);
        store.ensureReady();
        store.clear();
        Random random = new Random(n);
        long loadStart = System.nanoTime();
        List<VectorRecord> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(new VectorRecord("m" + i, randomUnit(random), "/project-" + (i % 5),
                    i % 3 == 0 ? "decision" : "exchange", "active", LocalDateTime.of(2026, 1, 1, 0, 0).plusMinutes(i)));
            if (batch.size() == 10_000) {
                store.upsert(batch);
                batch.clear();
            }
        }
        store.upsert(batch);
        double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
        long[] micros = new long[200];
        for (int q = -20; q < micros.length; q++) { // 20 warm-up queries
            float[] query = randomUnit(random);
            long start = System.nanoTime();
            store.search(query, 10, VectorFilter.project("/project-" + Math.floorMod(q, 5)));
            if (q >= 0) {
                micros[q] = (System.nanoTime() - start) / 1000;
            }
        }
        Arrays.sort(micros);
        out.printf(
                "  DuckDB search, %,7d vectors: p50 %6.1f ms  p95 %6.1f ms  (top-10, project filter; loaded in %.1f s)%n",
                n, micros[micros.length / 2] / 1000.0, micros[(int) Math.ceil(micros.length * 0.95) - 1] / 1000.0,
                loadSeconds);
        store.clear();
    }

    /**
     * A random direction in the 384 dimensions of the default model: a stand-in vector
     * for search benches.
     */
    public static float[] randomUnit(Random random) {
        float[] v = new float[384];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    /**
     * What sorting texts by length before batching saves on texts as a coding session
     * mixes them (a fifth short titles of a few words, most one claim, a fifth long
     * replies that fill the model's 256 tokens): the same texts embedded batch by batch
     * in the order given, as the embedder did before it sorted, against one call that
     * sorts them. Interleaved, best of two each.
     */
    private static void mixedLengths(PrintStream out, MiniLmOnnxEmbedder embedder, int n) {
        List<String> texts = mixedCorpus(n);
        int batch = MiniLmOnnxEmbedder.DEFAULT_BATCH_SIZE;
        double inOrder = Double.MAX_VALUE;
        double sorted = Double.MAX_VALUE;
        for (int round = 0; round < 2; round++) {
            long t0 = System.nanoTime();
            for (int from = 0; from < texts.size(); from += batch) {
                embedder.embed(texts.subList(from, Math.min(from + batch, texts.size())));
            }
            inOrder = Math.min(inOrder, (System.nanoTime() - t0) / 1e9);
            long t1 = System.nanoTime();
            embedder.embed(texts);
            sorted = Math.min(sorted, (System.nanoTime() - t1) / 1e9);
        }
        out.printf("  mixed lengths, %d texts: batches in the given order %7.1f texts/s, sorted by length %7.1f texts/s"
                + " (%.2fx)%n", texts.size(), texts.size() / inOrder, texts.size() / sorted, inOrder / sorted);
    }

    static List<String> mixedCorpus(int n) {
        Random random = new Random(11);
        List<String> claims = corpus(n);
        List<String> texts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int shape = random.nextInt(5);
            String subject = SUBJECTS[random.nextInt(SUBJECTS.length)];
            texts.add(switch (shape) {
                case 0 -> "Committed: fix " + subject + " (" + i + ")";
                case 4 -> String.join(" ", claims.get(i), claims.get((i + 1) % n), claims.get((i + 2) % n),
                        claims.get((i + 3) % n), claims.get((i + 4) % n));
                default -> claims.get(i);
            });
        }
        return texts;
    }

    static List<String> corpus(int n) {
        Random random = new Random(7);
        List<String> texts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String subject = SUBJECTS[random.nextInt(SUBJECTS.length)];
            texts.add(CLAIMS[i % CLAIMS.length].formatted(subject, 100 + random.nextInt(900)) + " (note " + i + ")");
        }
        return texts;
    }

    private void insertEntries(List<String> corpus) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(
                    """
                            INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                                 task_json, quotes_json, canonical_key, stage, status, created_at)
                            VALUES (?, ?, 'fact', '/bench', 'bench', TIMESTAMP '2026-01-01 00:00:00', ?, ?, NULL, '[]', ?,
                                    'verified', 'active', now()) ON CONFLICT DO NOTHING""")) {
                for (int i = 0; i < corpus.size(); i++) {
                    String text = corpus.get(i);
                    ps.setString(1, "bench_" + i);
                    ps.setString(2, "bench_c" + i);
                    ps.setString(3, text.substring(0, Math.min(80, text.length())));
                    ps.setString(4, text);
                    ps.setString(5, "bench:" + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot prepare the embedding bench: " + e.getMessage(), e);
        }
    }

}
