package dev.codememory.processors.turns;

import dev.codememory.capture.privacy.RedactedText;

/**
 * What the assembler may ask of a session's transcript file (wired to the transcript
 * reader in jobs).
 *
 * <p>
 * A transcript is text from outside the home that no hook redacted. Both answers are
 * therefore {@link RedactedText}, which only the
 * {@link dev.codememory.capture.privacy.Redactor} makes: an implementation cannot hand
 * the assembler a reply or a branch name that skipped redaction.
 */
public interface TranscriptSource {

    /**
     * The assistant's reply to {@code prompt} (as the hook stored it, redacted) in the
     * transcript at {@code path}, or null.
     */
    RedactedText replyTo(String path, String prompt);

    /** The git branch the transcript names last, or null. */
    RedactedText branch(String path);

    TranscriptSource NONE = new TranscriptSource() {
        @Override
        public RedactedText replyTo(String path, String prompt) {
            return null;
        }

        @Override
        public RedactedText branch(String path) {
            return null;
        }
    };

}
