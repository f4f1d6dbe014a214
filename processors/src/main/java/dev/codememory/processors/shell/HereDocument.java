package dev.codememory.processors.shell;

/**
 * A here-document ({@code <<DELIM} or {@code <<-DELIM}). Its body is read when the parser
 * reaches the end of the line that announced it, so it is filled in after the command
 * that owns it was built.
 */
final class HereDocument {

    private final String delimiter;

    private final boolean quoted;

    private final boolean stripTabs;

    private ShellText body;

    private int bodyStart = -1;

    private int bodyEnd = -1;

    HereDocument(String delimiter, boolean quoted, boolean stripTabs) {
        this.delimiter = delimiter;
        this.quoted = quoted;
        this.stripTabs = stripTabs;
    }

    /** The delimiter word as the shell delivers it (quotes removed). */
    String delimiter() {
        return delimiter;
    }

    /**
     * True when any part of the delimiter was quoted: the body is then taken literally.
     */
    boolean quoted() {
        return quoted;
    }

    /**
     * True for {@code <<-}: leading tabs are removed from body lines and from the
     * delimiter line.
     */
    boolean stripTabs() {
        return stripTabs;
    }

    /**
     * The body, each line with its line break; null until read (or when the command line
     * ends first).
     */
    ShellText body() {
        return body;
    }

    /** Where the body starts in the raw text; -1 until read. */
    int bodyStart() {
        return bodyStart;
    }

    /**
     * Where the body ends (the start of the delimiter line, or the end of the text); -1
     * until read.
     */
    int bodyEnd() {
        return bodyEnd;
    }

    void read(ShellText text, int start, int end) {
        this.body = text;
        this.bodyStart = start;
        this.bodyEnd = end;
    }

}
