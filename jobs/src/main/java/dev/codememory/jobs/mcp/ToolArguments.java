package dev.codememory.jobs.mcp;

import dev.codememory.config.json.Json;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A tool call's arguments, as the MCP client sent them (numbers as Java numbers) or as
 * they came through serve's socket (numbers as {@link Json.JsonNumber}). Every read that
 * does not fit throws {@link BadInput}, which the tool answers as a tool error.
 */
final class ToolArguments {

    /** Input the tool cannot work with; its message is shown to the model. */
    static final class BadInput extends RuntimeException {

        BadInput(String message) {
            super(message);
        }

    }

    private final Map<?, ?> values;

    ToolArguments(Map<?, ?> values) {
        this.values = values == null ? Map.of() : values;
    }

    /** A string, stripped; null when absent or blank. */
    String text(String name) {
        Object v = values.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new BadInput(name + " must be a string");
        }
        return s.isBlank() ? null : s.strip();
    }

    /** A whole number within [min, max]; {@code fallback} when absent. */
    int integer(String name, int fallback, int min, int max) {
        Object v = values.get(name);
        if (v == null) {
            return fallback;
        }
        String literal = v instanceof Json.JsonNumber n ? n.literal() : v instanceof Number n ? n.toString() : null;
        if (literal == null) {
            throw new BadInput(name + " must be a number");
        }
        long value;
        try {
            value = new java.math.BigDecimal(literal).longValueExact();
        }
        catch (NumberFormatException | ArithmeticException e) {
            throw new BadInput(name + " must be a whole number, was " + literal);
        }
        if (value < min || value > max) {
            throw new BadInput(name + " must be between " + min + " and " + max + ", was " + literal);
        }
        return (int) value;
    }

    boolean flag(String name) {
        Object v = values.get(name);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw new BadInput(name + " must be true or false");
        }
        return b;
    }

    /** One string or a list of strings; empty when absent. */
    List<String> texts(String name) {
        Object v = values.get(name);
        List<String> out = new ArrayList<>();
        if (v == null) {
            return out;
        }
        if (v instanceof String s) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
            return out;
        }
        if (!(v instanceof List<?> list)) {
            throw new BadInput(name + " must be a string or a list of strings");
        }
        for (Object o : list) {
            if (!(o instanceof String s)) {
                throw new BadInput(name + " must hold strings only");
            }
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    /**
     * A date or time as UTC: {@code 2026-03-03} (the start of that day in {@code zone},
     * or of the next day when {@code endOfDay}), a local date-time in {@code zone}, or
     * one with an offset. Null when absent.
     */
    LocalDateTime time(String name, ZoneId zone, boolean endOfDay) {
        String s = text(name);
        if (s == null) {
            return null;
        }
        try {
            LocalDate day = LocalDate.parse(s);
            return (endOfDay ? day.plusDays(1) : day).atStartOfDay(zone)
                .withZoneSameInstant(ZoneOffset.UTC)
                .toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            // not a plain date
        }
        try {
            return OffsetDateTime.parse(s).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            // no offset
        }
        try {
            return LocalDateTime.parse(s).atZone(zone).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        catch (DateTimeParseException e) {
            throw new BadInput(name + " must be a date like 2026-03-03 or an ISO-8601 time, was " + s);
        }
    }

}
