package dev.codememory.readers.transcript;

import dev.codememory.config.json.Json;
import dev.codememory.config.json.JsonParseException;
import dev.codememory.config.transcript.TranscriptRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The records of Claude Code transcript files
 * ({@code ~/.claude/projects/<project>/<session>.jsonl}, and
 * {@code <session>/subagents/agent-<id>.jsonl} for subagents), as JSON objects with their
 * line numbers. A line that is not a JSON object (a truncated line, a blank line) is
 * counted and skipped; bytes that are not UTF-8 are replaced, never fatal. Runs on the
 * JDK alone.
 */
public final class TranscriptRecords {

    /**
     * A file's readable records in file order, and how many of its lines were not
     * records.
     */
    public record FileRecords(Path file, List<TranscriptRecord> records, int invalidLines) {
    }

    private TranscriptRecords() {
    }

    @SuppressWarnings("unchecked")
    public static FileRecords read(Path file) throws IOException {
        List<TranscriptRecord> records = new ArrayList<>();
        int invalid = 0;
        int lineNumber = 0;
        try (BufferedReader in = lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                Object parsed;
                try {
                    parsed = Json.parse(line);
                }
                catch (JsonParseException e) {
                    invalid++;
                    continue;
                }
                if (parsed instanceof Map<?, ?> map) {
                    records.add(new TranscriptRecord(lineNumber, (Map<String, Object>) map));
                }
                else {
                    invalid++;
                }
            }
        }
        return new FileRecords(file, records, invalid);
    }

    /**
     * The transcript files under {@code path} (a file, or a folder searched to any depth
     * for {@code *.jsonl}): session files first, ordered by the time of their first
     * record (a resumed session's file repeats records of the file it continues, which
     * must be read first), then subagent files ({@code …/subagents/*.jsonl}) in the same
     * order. A session file's own subagent folder is included when {@code path} is that
     * file.
     */
    public static List<Path> files(Path path) throws IOException {
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (Stream<Path> walk = Files.walk(path)) {
                walk.filter(p -> p.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(p))
                    .forEach(found::add);
            }
        }
        else {
            found.add(path);
            String name = path.getFileName().toString();
            Path subagents = name.endsWith(".jsonl")
                    ? path.resolveSibling(name.substring(0, name.length() - ".jsonl".length())).resolve("subagents")
                    : null;
            if (subagents != null && Files.isDirectory(subagents)) {
                try (Stream<Path> list = Files.list(subagents)) {
                    list.filter(p -> p.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(p))
                        .forEach(found::add);
                }
            }
        }
        List<Keyed> keyed = new ArrayList<>();
        for (Path p : found) {
            keyed.add(new Keyed(p, isSubagentFile(p), firstTimestamp(p)));
        }
        keyed.sort(java.util.Comparator.comparing(Keyed::subagent)
            .thenComparing(Keyed::firstTimestamp)
            .thenComparing(k -> k.file().toString()));
        return keyed.stream().map(Keyed::file).toList();
    }

    /**
     * Whether a file holds a subagent's records ({@code …/subagents/agent-<id>.jsonl}).
     */
    public static boolean isSubagentFile(Path file) {
        Path parent = file.getParent();
        return parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("subagents");
    }

    private record Keyed(Path file, boolean subagent, String firstTimestamp) {
    }

    /**
     * The {@code timestamp} of the file's first record that has one, or "" (sorted
     * first).
     */
    static String firstTimestamp(Path file) throws IOException {
        try (BufferedReader in = lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.contains("\"timestamp\"")) {
                    continue;
                }
                try {
                    if (Json.parse(line) instanceof Map<?, ?> map && map.get("timestamp") instanceof String ts) {
                        return ts;
                    }
                }
                catch (JsonParseException e) {
                    // an unreadable line: try the next
                }
            }
        }
        return "";
    }

    /**
     * The file's lines as they were when it was opened, bytes that are not UTF-8 replaced
     * (a transcript is never rejected for them); an error for a path that is not a
     * regular file ({@link TranscriptFile}).
     */
    private static BufferedReader lines(Path file) throws IOException {
        return new BufferedReader(new InputStreamReader(TranscriptFile.open(file),
                StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)),
                1 << 16);
    }

}
