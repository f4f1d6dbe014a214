package dev.codememory.processors.turns;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one place that turns an event payload field into the text quotes are taken from and
 * aligned against (see {@link dev.codememory.config.graduate.SourceText}): a string value
 * as it is, anything else as compact JSON.
 */
public final class SourceTexts {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private SourceTexts() {
    }

    /** The text of {@code field} in the payload, or null when absent or null. */
    public static String of(JsonNode payload, String field) {
        JsonNode value = payload.get(field);
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        return value.isString() ? value.asString() : MAPPER.writeValueAsString(value);
    }

}
