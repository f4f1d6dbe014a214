package dev.codememory.jobs.transcript;

import dev.codememory.capture.spool.Spool;
import dev.codememory.capture.spool.SpoolLineBuilder;
import dev.codememory.config.json.Json;
import dev.codememory.config.transcript.TranscriptRecord;
import dev.codememory.processors.transcript.TranscriptHookEvents;
import dev.codememory.readers.transcript.TranscriptRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code import --transcripts}: Claude Code transcripts → the hook events they stand for
 * ({@link TranscriptHookEvents}) → the same redaction and spool as a hook call
 * ({@link SpoolLineBuilder}, {@link Spool}), each line marked {@code source: transcript}
 * with its origin (file:line) and identity. Files are read in the order of their first
 * record; a record whose uuid was read before (a resumed session's file repeats the
 * records it continues) is skipped, and across runs the events' identities make ingest
 * keep each once. Runs on the JDK alone.
 */
public final class TranscriptImport {

    public static final String SOURCE = "transcript";

    private static final int BATCH = 1000;

    /** What an import found and spooled. */
    public record Result(int sessionFiles, int subagentFiles, long records, long invalidLines, long repeatedRecords,
            Map<String, Long> eventsByType) {

        public long events() {
            return eventsByType.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** How far an import is: files done of all, events spooled so far. */
    public record Progress(int filesDone, int files, long events) {
    }

    private TranscriptImport() {
    }

    public static Result run(Path path, Spool spool, SpoolLineBuilder builder, Consumer<Progress> progress)
            throws IOException {
        List<Path> files = TranscriptRecords.files(path);
        Set<String> seen = new HashSet<>();
        Map<String, Long> byType = new TreeMap<>();
        int sessionFiles = 0;
        int subagentFiles = 0;
        long records = 0;
        long invalid = 0;
        long repeated = 0;
        long events = 0;
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            boolean subagent = TranscriptRecords.isSubagentFile(file);
            if (subagent) {
                subagentFiles++;
            }
            else {
                sessionFiles++;
            }
            TranscriptRecords.FileRecords read = TranscriptRecords.read(file);
            invalid += read.invalidLines();
            List<TranscriptRecord> fresh = new ArrayList<>(read.records().size());
            for (TranscriptRecord r : read.records()) {
                records++;
                String uuid = r.text("uuid");
                boolean carriesEvent = r.text("timestamp") != null && r.text("sessionId") != null;
                if (carriesEvent && uuid != null && !seen.add(uuid)) {
                    repeated++;
                    continue;
                }
                fresh.add(r);
            }
            String transcript = file.toString();
            List<TranscriptHookEvents.Event> converted = TranscriptHookEvents.of(fresh, transcript,
                    subagent ? sessionTranscript(file).toString() : transcript);
            List<String> batch = new ArrayList<>(Math.min(BATCH, converted.size()));
            Instant now = Instant.now();
            for (TranscriptHookEvents.Event e : converted) {
                batch.add(builder.build(Json.write(e.hook()), now, SOURCE, e.origin(), e.identity()).json());
                byType.merge(e.hookEventName(), 1L, Long::sum);
                if (batch.size() == BATCH) {
                    spool.appendAll(batch);
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) {
                spool.appendAll(batch);
            }
            events += converted.size();
            progress.accept(new Progress(i + 1, files.size(), events));
        }
        return new Result(sessionFiles, subagentFiles, records, invalid, repeated, byType);
    }

    /** {@code …/<session>/subagents/agent-x.jsonl} → {@code …/<session>.jsonl}. */
    static Path sessionTranscript(Path subagentFile) {
        Path sessionDir = subagentFile.getParent().getParent();
        return sessionDir.resolveSibling(sessionDir.getFileName() + ".jsonl");
    }

}
