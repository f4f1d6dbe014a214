package dev.codememory.readers.workingset;

import dev.codememory.config.home.CodeMemoryHome;
import dev.codememory.config.ingest.SpoolLine;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The spool lines of one session that may not be in the database yet: hook lines wait in
 * {@code spool/current.jsonl} and {@code spool/sealed/} until the next ingest (every
 * minute under {@code serve}). Read newest file first and from the end, at most
 * {@code maxBytes} in all, without the spool lock (a hook appends whole lines; a line
 * still being written fails to parse later and is left out). Only lines that hold the
 * session id in quotes are kept; whether they belong to it is for the caller to decide.
 * The project's newest session, at a fresh start without {@code serve}, is read from the
 * same tail ({@link #lines}).
 */
public final class SpoolTail {

    private SpoolTail() {
    }

    /**
     * The lines of the spool's files that mention {@code "sessionId"}, in spool order,
     * from the newest {@code maxBytes} of the spool.
     */
    public static List<SpoolLine> linesOf(CodeMemoryHome home, String sessionId, long maxBytes) throws IOException {
        return lines(home, "\"" + sessionId + "\"", maxBytes);
    }

    /**
     * Every line of the spool's files, in spool order, from the newest {@code maxBytes}
     * of the spool: whose sessions they are is for the caller to read.
     */
    public static List<SpoolLine> lines(CodeMemoryHome home, long maxBytes) throws IOException {
        return lines(home, "", maxBytes);
    }

    private static List<SpoolLine> lines(CodeMemoryHome home, String needle, long maxBytes) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(home.sealedSpool())) {
            try (var stream = Files.list(home.sealedSpool())) {
                stream.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().forEach(files::add);
            }
        }
        Path current = home.spool().resolve("current.jsonl");
        if (Files.isRegularFile(current)) {
            files.add(current);
        }
        List<List<SpoolLine>> newestFirst = new ArrayList<>();
        long budget = maxBytes;
        for (int i = files.size() - 1; i >= 0 && budget > 0; i--) {
            Path file = files.get(i);
            long size = Files.size(file);
            long from = Math.max(0, size - budget);
            budget -= size - from;
            newestFirst.add(read(file, from, size, needle));
        }
        Collections.reverse(newestFirst);
        return newestFirst.stream().flatMap(List::stream).toList();
    }

    private static List<SpoolLine> read(Path file, long from, long to, String needle) throws IOException {
        byte[] bytes = new byte[(int) (to - from)];
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(from);
            in.readFully(bytes);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        List<SpoolLine> out = new ArrayList<>();
        // a tail that starts mid-line drops that line; the last piece has no '\n' yet
        for (int i = from > 0 ? 1 : 0; i < lines.length - 1; i++) {
            if (lines[i].contains(needle)) {
                out.add(new SpoolLine(file.toString(), i + 1, lines[i], true, false));
            }
        }
        return out;
    }

}
