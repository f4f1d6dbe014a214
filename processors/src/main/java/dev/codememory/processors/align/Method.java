package dev.codememory.processors.align;

/** How a quote was found in its source, strongest first. */
public enum Method {

    /** The quote occurs verbatim. */
    EXACT,

    /** The quote occurs once runs of whitespace are collapsed on both sides. */
    WHITESPACE,

    /** A window of the source is within the fuzzy threshold of the quote. */
    FUZZY

}
