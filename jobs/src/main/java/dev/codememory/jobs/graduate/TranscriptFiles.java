package dev.codememory.jobs.graduate;

import dev.codememory.processors.turns.TranscriptSource;
import dev.codememory.readers.transcript.TranscriptReader;
import java.nio.file.Path;
import java.util.List;

/** Transcript look-ups for the assembler, reading each transcript file once while it is asked about. */
class TranscriptFiles implements TranscriptSource {

    private final TranscriptReader reader = new TranscriptReader();
    private String cachedPath;
    private List<TranscriptReader.Message> cached = List.of();

    @Override
    public synchronized String replyTo(String path, String prompt) {
        return TranscriptReader.replyTo(messages(path), prompt);
    }

    @Override
    public synchronized String branch(String path) {
        return TranscriptReader.branch(messages(path));
    }

    private List<TranscriptReader.Message> messages(String path) {
        if (!path.equals(cachedPath)) {
            cachedPath = path;
            cached = reader.read(expand(path));
        }
        return cached;
    }

    private static Path expand(String path) {
        return path.startsWith("~/") ? Path.of(System.getProperty("user.home"), path.substring(2)) : Path.of(path);
    }
}
