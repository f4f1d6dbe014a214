package dev.codememory.processors.extract;

import dev.codememory.config.graduate.CandidateKind;
import dev.codememory.config.graduate.Quote;
import dev.codememory.processors.canonical.CanonicalKeys;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The id of a candidate:
 * {@code "cand_" + the first 32 hex digits of sha256(kind | sessionId | source event ids,
 * comma-joined in quote order | CanonicalKeys.normalize(body))}. The same claim from the
 * same sources gets the same id on every run, so writing it again changes nothing.
 */
public final class CandidateIds {

    private static final int ID_HEX_CHARS = 32;

    private CandidateIds() {
    }

    public static String of(CandidateKind kind, String sessionId, List<Quote> quotes, String body) {
        Set<String> eventIds = new LinkedHashSet<>();
        for (Quote quote : quotes) {
            eventIds.add(quote.eventId());
        }
        String material = kind.key() + "|" + sessionId + "|" + String.join(",", eventIds) + "|"
                + CanonicalKeys.normalize(body);
        return "cand_" + CanonicalKeys.sha256(material).substring(0, ID_HEX_CHARS);
    }

}
