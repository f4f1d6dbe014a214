package dev.codememory.bench;

import dev.codememory.retrieval.embed.MiniLmOnnxEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Prints MiniLM load time and throughput of {@link MiniLmOnnxEmbedder#embed} (the
 * product's embedder) against {@link RawOnnxBaseline} (ONNX Runtime direct, on a second
 * session) on the same texts in the same process, alternating the two so machine noise
 * hits both. Not a test; run its {@code main} with the bench's test classpath:
 * {@code java -cp … dev.codememory.bench.MiniLmThroughputBench [texts] [words] [rounds]}.
 */
public final class MiniLmThroughputBench {

    private static final String[] WORDS = ("the memory system stores every decision made during a session so that "
            + "later work can find it again when the same question comes back from another user or project and "
            + "each note keeps its source file line number date time author reason status")
        .split(" ");

    private MiniLmThroughputBench() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int words = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> texts = corpus(count, words);

        long start = System.nanoTime();
        byte[] onnx = readModel();
        long read = millisSince(start);
        start = System.nanoTime();
        sha256(onnx);
        System.out.printf("of which, measured separately: read resource %d ms, SHA-256 %d ms%n", read,
                millisSince(start));

        start = System.nanoTime();
        try (MiniLmOnnxEmbedder embedder = new MiniLmOnnxEmbedder()) {
            System.out.printf("model load (SHA-256 check + tokenizer + ORT session): %d ms%n", millisSince(start));
            start = System.nanoTime();
            try (RawOnnxBaseline raw = new RawOnnxBaseline(embedder.batchSize(), MiniLmOnnxEmbedder.MAX_TOKENS, 0)) {
                raw.embed(texts.subList(0, 1));
                System.out.printf("raw ORT session open (second copy, for the benchmark only): %d ms%n",
                        millisSince(start));
                embedder.embed(texts.subList(0, 64));
                raw.embed(texts.subList(0, 64));

                for (int round = 1; round <= rounds; round++) {
                    start = System.nanoTime();
                    embedder.embed(texts);
                    report("product embed()", round, count, start);
                    start = System.nanoTime();
                    raw.embed(texts);
                    report("raw ORT baseline", round, count, start);
                }
            }
        }
    }

    /** {@code count} texts of about {@code length} words, all different. */
    private static List<String> corpus(int count, int length) {
        List<String> texts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringJoiner text = new StringJoiner(" ");
            for (int w = 0; w < length - 5 + i % 11; w++) {
                text.add(WORDS[(i * 7 + w) % WORDS.length]);
            }
            texts.add("note " + i + ": " + text);
        }
        return texts;
    }

    private static byte[] readModel() {
        try (InputStream in = MiniLmThroughputBench.class.getClassLoader()
            .getResourceAsStream(MiniLmOnnxEmbedder.MODEL_RESOURCE)) {
            return in.readAllBytes();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM must provide SHA-256", e);
        }
    }

    private static void report(String path, int round, int count, long start) {
        long millis = millisSince(start);
        System.out.printf("round %d %-20s %5d texts in %6d ms = %6.1f texts/s%n", round, path, count, millis,
                count * 1000.0 / millis);
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

}
