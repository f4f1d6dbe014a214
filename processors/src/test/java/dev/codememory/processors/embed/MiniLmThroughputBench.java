package dev.codememory.processors.embed;

import java.util.List;

/**
 * Prints MiniLM load time and throughput of {@link MiniLmOnnxEmbedder#embed} (DJL
 * pipeline) against {@link MiniLmOnnxEmbedder#embedRaw} (ONNX Runtime direct) on the same
 * texts in the same process, alternating the two so machine noise hits both. Not a test;
 * run its {@code main} with the test classpath:
 * {@code java -cp … dev.codememory.processors.embed.MiniLmThroughputBench [texts] [words] [rounds]}.
 */
public final class MiniLmThroughputBench {

    private MiniLmThroughputBench() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        int words = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> texts = Texts.corpus(count, words);

        long start = System.nanoTime();
        byte[] onnx = readModel();
        long read = millisSince(start);
        start = System.nanoTime();
        ModelChecksum.sha256(onnx);
        System.out.printf("of which, measured separately: read resource %d ms, SHA-256 %d ms%n", read,
                millisSince(start));

        start = System.nanoTime();
        try (MiniLmOnnxEmbedder embedder = new MiniLmOnnxEmbedder()) {
            System.out.printf("model load (SHA-256 check + tokenizer + ORT session): %d ms%n", millisSince(start));
            start = System.nanoTime();
            embedder.embedRaw(texts.subList(0, 1));
            System.out.printf("raw ORT session open (second copy, for the benchmark only): %d ms%n",
                    millisSince(start));
            embedder.embed(texts.subList(0, 64));
            embedder.embedRaw(texts.subList(0, 64));

            for (int round = 1; round <= rounds; round++) {
                start = System.nanoTime();
                embedder.embed(texts);
                report("pipeline embed()", round, count, start);
                start = System.nanoTime();
                embedder.embedRaw(texts);
                report("raw ORT embedRaw()", round, count, start);
            }
        }
    }

    private static byte[] readModel() {
        try (var in = MiniLmThroughputBench.class.getClassLoader()
            .getResourceAsStream(MiniLmOnnxEmbedder.MODEL_RESOURCE)) {
            return in.readAllBytes();
        }
        catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
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
