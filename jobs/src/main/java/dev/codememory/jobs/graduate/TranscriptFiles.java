package dev.codememory.jobs.graduate;

import dev.codememory.capture.privacy.RedactedText;
import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.home.UserHome;
import dev.codememory.processors.turns.TranscriptSource;
import dev.codememory.readers.transcript.TranscriptReader;
import java.nio.file.Path;
import java.util.List;

/**
 * Transcript look-ups for the assembler, reading each transcript file once while it is
 * asked about. The reader redacts every message as it reads it; the answers are then made
 * {@link RedactedText} by the same redactor, the only form the assembler takes.
 */
class TranscriptFiles implements TranscriptSource {

    private final Redactor redactor = Redactor.defaults();

    private final TranscriptReader reader = new TranscriptReader(redactor::redact);

    private String cachedPath;

    private List<TranscriptReader.Message> cached = List.of();

    @Override
    public synchronized RedactedText replyTo(String path, String prompt) {
        return redactor.redactToText(TranscriptReader.replyTo(messages(path), prompt));
    }

    @Override
    public synchronized RedactedText branch(String path) {
        return redactor.redactToText(TranscriptReader.branch(messages(path)));
    }

    private List<TranscriptReader.Message> messages(String path) {
        if (!path.equals(cachedPath)) {
            cachedPath = path;
            cached = reader.read(expand(path));
        }
        return cached;
    }

    private static Path expand(String path) {
        return path.startsWith("~/") ? UserHome.expand(path) : Path.of(path);
    }

}
