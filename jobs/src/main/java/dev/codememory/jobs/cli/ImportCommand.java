package dev.codememory.jobs.cli;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.processors.capture.SpoolLineBuilder;
import dev.codememory.processors.privacy.Redactor;
import dev.codememory.writers.spool.SpoolAppender;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code jobs.jar import --hooks PATH}: replays a file or folder ({@code *.jsonl}, in name order) of hook JSON
 * lines through the same redaction into the spool. A line's optional top-level {@code timestamp} becomes the
 * event time at ingest; lines keep their origin (file:line) so a re-import without timestamps is recognised.
 * Bad lines are spooled flagged, like bad hook input, and show up as rejects after ingest.
 */
public final class ImportCommand {

    private static final int BATCH = 1000;

    private ImportCommand() {
    }

    public static int run(String[] args) {
        if (args.length != 3 || !"--hooks".equals(args[1])) {
            System.err.println("usage: java -jar jobs.jar import --hooks PATH   (a .jsonl file or a folder of them)");
            return 2;
        }
        Path path = Path.of(args[2]).toAbsolutePath().normalize();
        if (!Files.exists(path)) {
            System.err.println("import: no such file or folder: " + path);
            return 2;
        }
        try {
            CodeMemoryHome home = CodeMemoryHome.resolve().ensureCreated();
            Result result = importHooks(path, SpoolAppender.forHome(home),
                    new SpoolLineBuilder(Redactor.defaults(), HookCommand.maxFieldBytes()));
            System.out.printf("imported %d lines from %d file(s) into %s (%d flagged as bad input)%n",
                    result.lines(), result.files(), home.spool(), result.flagged());
            System.out.println("run `java -jar jobs.jar --job=ingest` (or wait for `serve`) to load them");
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("import failed: " + e.getMessage());
            return 1;
        }
    }

    public record Result(int files, long lines, long flagged) {
    }

    public static Result importHooks(Path path, SpoolAppender spool, SpoolLineBuilder builder) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> list = Files.list(path)) {
                list.filter(p -> p.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(p))
                        .sorted().forEach(files::add);
            }
        } else {
            files.add(path);
        }
        long lines = 0;
        long flagged = 0;
        for (Path file : files) {
            List<String> batch = new ArrayList<>(BATCH);
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                long lineNumber = 0;
                byte[] raw;
                while ((raw = nextLine(in)) != null) {
                    lineNumber++;
                    if (isBlank(raw)) {
                        continue;
                    }
                    SpoolLineBuilder.Line line = builder.build(raw, Instant.now(), "import", file + ":" + lineNumber);
                    if (line.flagged()) {
                        flagged++;
                    }
                    batch.add(line.json());
                    lines++;
                    if (batch.size() == BATCH) {
                        spool.appendAll(batch);
                        batch.clear();
                    }
                }
            }
            if (!batch.isEmpty()) {
                spool.appendAll(batch);
            }
        }
        return new Result(files.size(), lines, flagged);
    }

    private static byte[] nextLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
        int b;
        boolean any = false;
        while ((b = in.read()) != -1) {
            any = true;
            if (b == '\n') {
                break;
            }
            line.write(b);
        }
        if (!any) {
            return null;
        }
        byte[] bytes = line.toByteArray();
        int n = bytes.length;
        return n > 0 && bytes[n - 1] == '\r' ? java.util.Arrays.copyOf(bytes, n - 1) : bytes;
    }

    private static boolean isBlank(byte[] raw) {
        for (byte b : raw) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
