package dev.codememory.retrieval.context;

import java.util.Objects;

/**
 * A recorded text and the citation of the memory it comes from: the last session's
 * summary, a stated preference.
 *
 * @param text as recorded; a blank one is not shown
 * @param citation {@code mem:} + URL-safe base64
 */
public record CitedText(String text, String citation) {

    public CitedText {
        Objects.requireNonNull(text, "text");
        ContextText.requireCitation(citation);
    }
}
