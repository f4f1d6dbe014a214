package dev.codememory.bench;

import dev.codememory.config.db.DatabaseException;
import dev.codememory.config.db.Sql;
import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.vector.EmbeddingVersion;
import dev.codememory.config.vector.VectorFilter;
import dev.codememory.config.vector.VectorRecord;
import dev.codememory.jobs.runtime.JobDatabase;
import dev.codememory.jobs.runtime.JobRunner;
import dev.codememory.jobs.vector.EmbeddingService;
import dev.codememory.retrieval.embed.EmbeddingTexts;
import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import dev.codememory.retrieval.vector.DuckDbVectorStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
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
 * context, memories as long as real ones ({@link RealLengthMemories}) (1) embedded as
 * before this bench (whole texts, 256 tokens, batches of 32) through the product's
 * embedder and on raw ONNX Runtime ({@link RawOnnxBaseline}: same model, tokenizer,
 * session options and pooling, none of the product's embedder code); (2) each embedding
 * decision on raw ONNX Runtime against that baseline in the same rounds: 128 and 64
 * tokens, batch sizes and intra-op threads, the texts the product chooses
 * ({@link EmbeddingTexts}: an exchange's answering sentences, a task once for all its
 * statuses); (3) the whole embed step ({@code --job=reindex}: outbox, reader, embed,
 * DuckDB upsert, outbox marks) between two runs of the old embedder; (4) DuckDB
 * vector-store search latency at 10k and 100k vectors (p50, p95 of 200 filtered top-10
 * queries each). The machine's cores are shared and noisy, so every figure comes with a
 * ratio to a baseline measured in the same rounds.
 */
public class EmbeddingBench {

    private final JobRunner jobRunner;

    private final JobDatabase database;

    private final EmbeddingService embeddingService;

    private final int threads;

    /**
     * @param threads ONNX Runtime's intra-op threads the product's embedder runs with
     * ({@code code-memory.embedding.threads})
     */
    public EmbeddingBench(JobRunner jobRunner, JobDatabase database, EmbeddingService embeddingService, int threads) {
        this.jobRunner = jobRunner;
        this.database = database;
        this.embeddingService = embeddingService;
        this.threads = threads;
    }

    public int run(PrintStream out, int texts) {
        return run(out, texts, false);
    }

    /**
     * @param stepOnly only (3), twice: the embed step between two runs of the old
     * embedder (two minutes instead of eight, for comparing changes to the step)
     */
    public int run(PrintStream out, int texts, boolean stepOnly) {
        List<RealLengthMemories.Memory> memories = RealLengthMemories.generate(texts, 7);
        database.open();
        try {
            insertEntries(memories);
        }
        finally {
            database.close();
        }
        if (!(embeddingService.embedder() instanceof MiniLmOnnxEmbedder embedder)) {
            out.println("the embedding bench compares against raw ONNX Runtime: run it with the default model");
            return 2;
        }
        List<String> whole = memories.stream().map(m -> EmbeddingTexts.whole(m.title(), m.body())).toList();
        java.util.Map<String, Long> byKind = new java.util.TreeMap<>();
        memories.forEach(m -> byKind.merge(m.kind(), 1L, Long::sum));
        out.printf("%nembedding: %d memories as long as real ones (%s), whole texts avg %.0f chars%n", memories.size(),
                byKind, whole.stream().mapToInt(String::length).average().orElse(0));

        // before: every memory's whole text at 256 tokens in batches of 32 (the embedder
        // until this bench was written); the product's embedder and raw ONNX Runtime
        // interleaved, best of two
        Path cache = Path.of(System.getProperty(CodeMemoryHome.PROPERTY), "djl");
        MiniLmOnnxEmbedder old = new MiniLmOnnxEmbedder(cache, 32, 256, 0);
        try (RawOnnxBaseline oldRaw = new RawOnnxBaseline(32, 256, 0)) {
            warm(old, whole);
            if (stepOnly) {
                warm(embedder, whole);
                return embedStep(out, embedder, old, whole) + embedStep(out, embedder, old, whole);
            }
            warm(oldRaw, whole);
            long tokens = sum(oldRaw.tokenCounts(whole));
            double[] t = interleaved(() -> old.embed(whole), () -> oldRaw.embed(whole));
            out.printf(
                    "  before: whole texts, 256 tokens, batch 32   %6.1f texts/s %6.0f tokens/s; raw ORT %6.1f texts/s"
                            + " (%.2fx; %.0f tokens/text)%n",
                    whole.size() / t[0], tokens / t[0], whole.size() / t[1], t[0] / t[1],
                    (double) tokens / whole.size());

            // each decision on raw ONNX Runtime against the old embedder in the same
            // rounds
            for (int maxTokens : new int[] { 128, 64 }) {
                try (RawOnnxBaseline e = new RawOnnxBaseline(32, maxTokens, 0)) {
                    warm(e, whole);
                    double[] r = interleaved(() -> oldRaw.embed(whole), () -> e.embed(whole));
                    out.printf(
                            "  whole texts, %3d tokens, batch 32          raw ORT %6.1f texts/s %6.0f tokens/s"
                                    + " (%.2fx before)%n",
                            maxTokens, whole.size() / r[1], sum(e.tokenCounts(whole)) / r[1], r[0] / r[1]);
                }
            }
            int maxTokens = embedder.version().maxTokens();
            int[][] settings = { { 0, 16 }, { 0, 8 }, { 0, 4 }, { 1, 8 }, { 2, 8 } };
            for (int[] setting : settings) {
                try (RawOnnxBaseline e = new RawOnnxBaseline(setting[1], maxTokens, setting[0])) {
                    warm(e, whole);
                    double[] r = interleaved(() -> oldRaw.embed(whole), () -> e.embed(whole));
                    out.printf(
                            "  whole texts, %3d tokens, batch %2d, threads %s raw ORT %6.1f texts/s (%.2fx before)%n",
                            maxTokens, setting[1], setting[0] == 0 ? "ORT" : setting[0] + "  ", whole.size() / r[1],
                            r[0] / r[1]);
                }
            }
            EmbeddingTexts rule = new EmbeddingTexts(EmbeddingTexts.EXCHANGE_BUDGET);
            List<String> chosen = memories.stream()
                .map(m -> rule.embeddingText(m.kind(), m.title(), m.body(), m.replyQuote()))
                .toList();
            List<String> distinct = chosen.stream().distinct().toList();
            try (RawOnnxBaseline current = new RawOnnxBaseline(embedder.batchSize(), maxTokens, threads)) {
                warm(current, distinct);
                double[] r = interleaved(() -> oldRaw.embed(whole), () -> current.embed(distinct));
                out.printf(
                        "  chosen texts (%d distinct, avg %.0f chars), %d tokens, batch %d: raw ORT %6.1f texts/s"
                                + " %6.0f tokens/s = %6.1f memories/s (%.2fx before)%n",
                        distinct.size(), distinct.stream().mapToInt(String::length).average().orElse(0), maxTokens,
                        embedder.batchSize(), distinct.size() / r[1], sum(current.tokenCounts(distinct)) / r[1],
                        memories.size() / r[1], r[0] / r[1]);
            }

            if (embedStep(out, embedder, old, whole) != 0) {
                return 1;
            }
        }
        finally {
            old.close();
        }

        database.open();
        try {
            for (int n : new int[] { 10_000, 100_000 }) {
                searchLatency(out, n);
            }
        }
        finally {
            database.close();
        }
        return 0;
    }

    /**
     * The product's whole embed step ({@code --job=reindex}) on the memories, between two
     * runs of the old embedder on their whole texts.
     */
    private int embedStep(PrintStream out, MiniLmOnnxEmbedder embedder, MiniLmOnnxEmbedder old, List<String> whole) {
        double before1 = seconds(() -> old.embed(whole));
        JobExecution reindex = jobRunner.run("reindex");
        double before2 = seconds(() -> old.embed(whole));
        StepExecution step = reindex.getStepExecutions()
            .stream()
            .filter(s -> s.getStepName().equals("embedMemoriesStep"))
            .findFirst()
            .orElseThrow();
        double stepSeconds = java.time.Duration.between(step.getStartTime(), step.getEndTime()).toMillis() / 1000.0;
        double beforeRate = whole.size() / ((before1 + before2) / 2);
        double afterRate = step.getWriteCount() / stepSeconds;
        out.printf("  after: embed step (%s, batch %d)  %6.1f memories/s (%.1f s, %s, %d written)%n",
                embeddingService.version().id(), embedder.batchSize(), afterRate, stepSeconds, reindex.getStatus(),
                step.getWriteCount());
        out.printf("  before, just before and after it               %6.1f texts/s (%.1f s, %.1f s)%n", beforeRate,
                before1, before2);
        out.printf("  after / before: %.2fx (same run)%n", afterRate / beforeRate);
        return reindex.getStatus().isUnsuccessful() ? 1 : 0;
    }

    private static void warm(MiniLmOnnxEmbedder embedder, List<String> texts) {
        embedder.embed(texts.subList(0, Math.min(64, texts.size())));
    }

    private static void warm(RawOnnxBaseline baseline, List<String> texts) {
        baseline.embed(texts.subList(0, Math.min(64, texts.size())));
    }

    /**
     * Seconds each of two runs takes, alternated over two rounds so that both see the
     * same load; the better round of each.
     */
    private static double[] interleaved(Runnable first, Runnable second) {
        double[] best = { Double.MAX_VALUE, Double.MAX_VALUE };
        for (int round = 0; round < 2; round++) {
            best[0] = Math.min(best[0], seconds(first));
            best[1] = Math.min(best[1], seconds(second));
        }
        return best;
    }

    private static double seconds(Runnable run) {
        long start = System.nanoTime();
        run.run();
        return (System.nanoTime() - start) / 1e9;
    }

    private static long sum(int[] values) {
        long sum = 0;
        for (int v : values) {
            sum += v;
        }
        return sum;
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

    private void insertEntries(List<RealLengthMemories.Memory> memories) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            List<Long> indexes = java.util.stream.LongStream.range(0, memories.size()).boxed().toList();
            Sql.batch(c,
                    """
                            INSERT INTO entries (entry_id, candidate_id, entry_type, project, session_id, created_ts, title, body,
                                                 task_json, quotes_json, canonical_key, stage, status, created_at)
                            VALUES (?, ?, ?, '/bench', 'bench', TIMESTAMP '2026-01-01 00:00:00' + to_seconds(?), ?, ?, NULL,
                                    ?, ?, 'verified', 'active', now()) ON CONFLICT DO NOTHING""",
                    indexes, i -> {
                        RealLengthMemories.Memory m = memories.get(i.intValue());
                        String quotes = m.replyQuote() == null ? "[]"
                                : "[{\"eventId\":\"ev_p" + i + "\",\"field\":\"prompt\",\"text\":\"p\"},"
                                        + "{\"eventId\":\"ev_r" + i + "\",\"field\":\"reply\",\"text\":"
                                        + dev.codememory.config.json.Json.write(m.replyQuote()) + "}]";
                        return new Object[] { "bench_" + i, "bench_c" + i, m.kind(), i, m.title(), m.body(), quotes,
                                "bench:" + i };
                    });
            c.commit();
        }
        catch (SQLException e) {
            throw new DatabaseException("cannot prepare the embedding bench: " + e.getMessage(), e);
        }
    }

}
