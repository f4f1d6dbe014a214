package dev.codememory.processors.workingset;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The short handle of an event, {@code ev:} + the first {@value #CODE_CHARS} hex digits
 * of its id ({@code ev_} + 32 hex digits, derived from the event's dedupe key): what a
 * working-set line cites, and what {@code show ev:…} resolves by prefix. 32 bits: two
 * events of one database share a code about once in 65,000 pairs among 100,000 events,
 * and {@code show} then prints each.
 */
public final class EventCitation {

    public static final String PREFIX = "ev:";

    static final int CODE_CHARS = 8;

    private static final Pattern ID = Pattern.compile("ev_([0-9a-f]{" + CODE_CHARS + "})[0-9a-f]*");

    private static final Pattern CITATION = Pattern.compile("\\[?ev:([0-9a-f]{" + CODE_CHARS + "})]?");

    private EventCitation() {
    }

    /** {@code ev:} + the code of an event id {@code ev_…}. */
    public static String of(String eventId) {
        Matcher m = ID.matcher(Objects.requireNonNull(eventId, "eventId"));
        if (!m.matches()) {
            throw new IllegalArgumentException("not an event id (ev_ + hex): '" + eventId + "'");
        }
        return PREFIX + m.group(1);
    }

    /**
     * The prefix of the event ids a citation ({@code ev:xxxxxxxx} or
     * {@code [ev:xxxxxxxx]}) names, {@code ev_xxxxxxxx}; empty when it is not one.
     */
    public static Optional<String> idPrefix(String citation) {
        Matcher m = CITATION.matcher(citation == null ? "" : citation.strip());
        return m.matches() ? Optional.of("ev_" + m.group(1)) : Optional.empty();
    }

}
