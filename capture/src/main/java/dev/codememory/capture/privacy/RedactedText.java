package dev.codememory.capture.privacy;

/**
 * Text that has passed {@link Redactor}: the form in which text read from outside the
 * home (a transcript file, and whatever a later reader brings) is handed to the steps
 * that store it.
 *
 * <p>
 * The constructor is private to this package and only
 * {@link Redactor#redactToText(String)} calls it, so a component that takes a
 * {@code RedactedText} (such as the transcript look-ups of the session assembler) cannot
 * be given text that skipped redaction: the compiler refuses it. {@link #toString()}
 * names the length only, so the text cannot reach a log line by accident.
 */
public final class RedactedText {

    private final String text;

    RedactedText(String text) {
        this.text = text;
    }

    /** The redacted text. */
    public String text() {
        return text;
    }

    public boolean isBlank() {
        return text.isBlank();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedactedText r && r.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return "RedactedText[" + text.length() + " chars]";
    }

}
