package dev.codememory.config.settings;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings under {@code code-memory.*} (application.yml in the home overrides the
 * defaults).
 *
 * @param home the home folder (set from CODE_MEMORY_HOME at start-up)
 * @param duckdbMemoryLimit DuckDB's memory_limit for jobs
 * @param duckdbThreads DuckDB worker threads for jobs
 * @param ingest ingest step settings
 * @param schedule when {@code serve} runs jobs
 */
@ConfigurationProperties("code-memory")
public record CodeMemoryProperties(String home, String duckdbMemoryLimit, Integer duckdbThreads, Ingest ingest,
        Schedule schedule, String vectorStore, Milvus milvus, Embedding embedding) {

    public CodeMemoryProperties {
        if (home == null || home.isBlank()) {
            throw new IllegalArgumentException("code-memory.home must be set");
        }
        duckdbMemoryLimit = duckdbMemoryLimit == null ? "2GB" : duckdbMemoryLimit;
        duckdbThreads = duckdbThreads == null ? 2 : duckdbThreads;
        ingest = ingest == null ? new Ingest(null) : ingest;
        schedule = schedule == null ? new Schedule(null, null, null, null, null, null, null, null, null) : schedule;
        vectorStore = vectorStore == null ? "duckdb" : vectorStore.trim().toLowerCase(java.util.Locale.ROOT);
        if (!vectorStore.equals("duckdb") && !vectorStore.equals("milvus")) {
            throw new IllegalArgumentException("code-memory.vector-store must be duckdb or milvus, was " + vectorStore);
        }
        milvus = milvus == null ? new Milvus(null, null, null) : milvus;
        if (vectorStore.equals("milvus") && (milvus.uri() == null || milvus.uri().isBlank())) {
            throw new IllegalArgumentException(
                    "code-memory.milvus.uri must be set when code-memory.vector-store=milvus");
        }
        embedding = embedding == null ? new Embedding(null, null, null, null, null) : embedding;
    }

    /**
     * @param uri e.g. http://localhost:19530; @param token user:password or an API
     * key; @param database optional
     */
    public record Milvus(String uri, String token, String database) {
    }

    /**
     * @param batchSize texts per model call
     * @param chunkSize memories per embed-step transaction; the embedder sorts a chunk by
     * length before cutting it into batches, so larger chunks pad less (512 embed about
     * 1.2x faster than 128 on real-length texts)
     * @param model {@code minilm} (default: all-MiniLM-L6-v2 on ONNX Runtime) or
     * {@code torchscript}
     * @param torchscript the TorchScript model, when {@code model=torchscript}
     * @param threads ONNX Runtime's intra-op threads for the default model; 0 (default)
     * lets it take one per physical core
     */
    public record Embedding(Integer batchSize, Integer chunkSize, String model, TorchScript torchscript,
            Integer threads) {

        public Embedding {
            batchSize = batchSize == null ? 8 : batchSize;
            chunkSize = chunkSize == null ? 512 : chunkSize;
            threads = threads == null ? 0 : threads;
            if (batchSize < 1 || chunkSize < 1) {
                throw new IllegalArgumentException("code-memory.embedding batch-size and chunk-size must be positive");
            }
            if (threads < 0) {
                throw new IllegalArgumentException(
                        "code-memory.embedding.threads must not be negative, was " + threads);
            }
            model = model == null ? "minilm" : model.trim().toLowerCase(java.util.Locale.ROOT);
            if (!model.equals("minilm") && !model.equals("torchscript")) {
                throw new IllegalArgumentException(
                        "code-memory.embedding.model must be minilm or torchscript, was " + model);
            }
            if (model.equals("torchscript") && (torchscript == null || torchscript.url() == null
                    || torchscript.tokenizer() == null || torchscript.dimension() == null)) {
                throw new IllegalArgumentException("code-memory.embedding.torchscript.url, .tokenizer and .dimension"
                        + " must be set when code-memory.embedding.model=torchscript");
            }
        }
    }

    /**
     * @param url a local path, file: URL or djl:// URL of the TorchScript model
     * @param tokenizer the HuggingFace tokenizer.json for it
     * @param dimension the model's output dimension
     * @param name recorded in the embedding version (default: the model's file name)
     */
    public record TorchScript(String url, String tokenizer, Integer dimension, String name) {
    }

    /**
     * @param chunkSize spool lines per chunk (one DuckDB transaction and one metadata
     * commit each)
     */
    public record Ingest(Integer chunkSize) {

        public Ingest {
            chunkSize = chunkSize == null ? 10_000 : chunkSize;
            if (chunkSize < 1) {
                throw new IllegalArgumentException(
                        "code-memory.ingest.chunk-size must be at least 1, was " + chunkSize);
            }
        }
    }

    /**
     * @param ingestEvery how often {@code serve} ingests the spool
     * @param idleAfter graduate once no new event has arrived for this long
     * @param idleCheckEvery how often the idle condition is checked
     * @param nightlyCron Quartz cron for the nightly graduation (local time)
     * @param enabled false: {@code serve} answers but runs no job by itself (benchmarks,
     * a home fed elsewhere)
     * @param afterSave graduate this long after an MCP {@code mem-save} (several saves
     * within it: once), so what the user asked to remember is searchable without waiting
     * for idle; zero: wait for idle like every other event
     * @param afterSessionEnd graduate once a session has ended (its SessionEnd ingested)
     * and this long has passed, so the next session finds it as memory; zero: wait for
     * idle
     * @param store where Quartz keeps the schedule: {@code memory} (default, this process
     * only) or {@code jdbc}: the job repository's PostgreSQL database
     * ({@code spring.datasource.*}), clustered, so two {@code serve} processes of one
     * home never run the same fire of a job twice
     * @param clusterCheckinInterval with {@code store=jdbc}: how often a serve tells the
     * others it is alive; one silent for this long plus Quartz's 7.5 s grace is taken for
     * dead and its triggers are taken over
     */
    public record Schedule(Duration ingestEvery, Duration idleAfter, Duration idleCheckEvery, String nightlyCron,
            Boolean enabled, Duration afterSave, Duration afterSessionEnd, String store,
            Duration clusterCheckinInterval) {

        public Schedule {
            store = store == null ? "memory" : store.trim().toLowerCase(java.util.Locale.ROOT);
            if (!store.equals("memory") && !store.equals("jdbc")) {
                throw new IllegalArgumentException("code-memory.schedule.store must be memory or jdbc, was " + store);
            }
            clusterCheckinInterval = clusterCheckinInterval == null ? Duration.ofSeconds(5) : clusterCheckinInterval;
            if (clusterCheckinInterval.toMillis() < 1000) {
                throw new IllegalArgumentException(
                        "code-memory.schedule.cluster-checkin-interval must be at least 1s, was "
                                + clusterCheckinInterval);
            }
            enabled = enabled == null || enabled;
            afterSave = afterSave == null ? Duration.ofMinutes(1) : afterSave;
            if (afterSave.isNegative()) {
                throw new IllegalArgumentException("code-memory.schedule.after-save must not be negative");
            }
            afterSessionEnd = afterSessionEnd == null ? Duration.ofMinutes(1) : afterSessionEnd;
            if (afterSessionEnd.isNegative()) {
                throw new IllegalArgumentException("code-memory.schedule.after-session-end must not be negative");
            }
            ingestEvery = ingestEvery == null ? Duration.ofMinutes(1) : ingestEvery;
            idleAfter = idleAfter == null ? Duration.ofMinutes(30) : idleAfter;
            idleCheckEvery = idleCheckEvery == null ? Duration.ofMinutes(1) : idleCheckEvery;
            nightlyCron = nightlyCron == null ? "0 0 3 * * ?" : nightlyCron;
            if (ingestEvery.isNegative() || ingestEvery.isZero()) {
                throw new IllegalArgumentException("code-memory.schedule.ingest-every must be positive");
            }
            if (idleAfter.isNegative()) {
                throw new IllegalArgumentException("code-memory.schedule.idle-after must not be negative");
            }
            if (idleCheckEvery.isNegative() || idleCheckEvery.isZero()) {
                throw new IllegalArgumentException("code-memory.schedule.idle-check-every must be positive");
            }
        }
    }
}
