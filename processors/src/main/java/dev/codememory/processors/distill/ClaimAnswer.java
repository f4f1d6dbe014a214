package dev.codememory.processors.distill;

import dev.codememory.config.distill.DistillAnswer;
import dev.codememory.config.distill.DistillModelException;
import dev.codememory.config.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads the model's answer: one JSON object {@code {"claims":[…]}}, possibly inside a
 * Markdown code fence. An answer that is not that object is malformed (the session is
 * asked again later); a claim inside it that lacks a field is kept with the field empty,
 * for the proof to reject and count.
 */
public final class ClaimAnswer {

    private ClaimAnswer() {
    }

    /**
     * The claims of the answer.
     * @throws DistillModelException ({@code MALFORMED}) when it is not the JSON shape
     * asked for
     */
    public static List<Claim> parse(DistillAnswer answer) {
        String text = answer.text();
        int from = text.indexOf('{');
        int to = text.lastIndexOf('}');
        if (from < 0 || to < from) {
            throw malformed("no JSON object", answer, null);
        }
        Object doc;
        try {
            doc = Json.parse(text.substring(from, to + 1));
        }
        catch (RuntimeException e) {
            throw malformed("not JSON", answer, e);
        }
        if (!(doc instanceof Map<?, ?> map) || !(map.get("claims") instanceof List<?> claims)) {
            throw malformed("no \"claims\" list", answer, null);
        }
        List<Claim> out = new ArrayList<>();
        for (Object item : claims) {
            Map<?, ?> claim = item instanceof Map<?, ?> m ? m : Map.of();
            List<Claim.ClaimQuote> quotes = new ArrayList<>();
            if (claim.get("quotes") instanceof List<?> list) {
                for (Object q : list) {
                    if (q instanceof Map<?, ?> quote) {
                        quotes.add(new Claim.ClaimQuote(number(quote.get("source")), string(quote.get("text"))));
                    }
                    else if (q instanceof String s) {
                        quotes.add(new Claim.ClaimQuote(0, s));
                    }
                }
            }
            out.add(new Claim(string(claim.get("kind")), string(claim.get("text")), string(claim.get("reason")),
                    quotes));
        }
        return out;
    }

    private static DistillModelException malformed(String why, DistillAnswer answer, Throwable cause) {
        return new DistillModelException(DistillModelException.Reason.MALFORMED, "malformed answer: " + why, answer,
                cause);
    }

    private static String string(Object value) {
        return value instanceof String s ? s : "";
    }

    private static int number(Object value) {
        String literal = value instanceof Json.JsonNumber n ? n.literal() : value instanceof String s ? s : null;
        if (literal != null) {
            try {
                return Integer.parseInt(literal.strip().replace("[", "").replace("]", ""));
            }
            catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

}
