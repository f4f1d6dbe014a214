package dev.codememory.processors.turns;

/** What the assembler may ask of a session's transcript file (wired to the transcript reader in jobs). */
public interface TranscriptSource {

    /** The assistant's reply to {@code prompt} in the transcript at {@code path}, or null. */
    String replyTo(String path, String prompt);

    /** The git branch the transcript names last, or null. */
    String branch(String path);

    TranscriptSource NONE = new TranscriptSource() {
        @Override
        public String replyTo(String path, String prompt) {
            return null;
        }

        @Override
        public String branch(String path) {
            return null;
        }
    };
}
