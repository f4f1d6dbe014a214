package dev.codememory.retrieval.context;

import dev.codememory.capture.privacy.RedactedText;
import dev.codememory.capture.privacy.Redactor;
import dev.codememory.config.home.UserHome;
import dev.codememory.processors.turns.TranscriptSource;
import dev.codememory.readers.transcript.TranscriptReader;

/**
 * What a session start reads of a transcript: the branch named in its last
 * {@value #TAIL_BYTES} bytes, redacted, so the cost does not grow with the session. No
 * reply is read: the working set keeps to what the hooks recorded.
 */
final class TranscriptTail implements TranscriptSource {

    static final int TAIL_BYTES = 256 * 1024;

    static final TranscriptTail INSTANCE = new TranscriptTail();

    private final Redactor redactor = Redactor.defaults();

    private TranscriptTail() {
    }

    @Override
    public RedactedText replyTo(String path, String prompt) {
        return null;
    }

    @Override
    public RedactedText branch(String path) {
        return redactor.redactToText(TranscriptReader.branchInTail(UserHome.expand(path), TAIL_BYTES));
    }

}
