package dev.codememory.config.graduate;

/**
 * Finds the text a quote claims to come from (see {@link SourceText}); null when there is
 * none.
 */
public interface SourceTextLookup {

    String text(String eventId, String field);

}
