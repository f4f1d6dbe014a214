package dev.codememory.retrieval.ranking;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The period a query names, if any: a day ("on 13 October, 2023", "October 13, 2023", "on
 * 2023-10-13"), a month ("in August 2023"; "in June" is the latest June up to the query's
 * day) or a year ("in 2022", "during 2022"). Memories from outside it rank lower
 * ({@link RankingSettings#outOfPeriod()}): "what did we decide in March" is about March.
 * English month names only; a bare "may" counts only with a year, a day or "in"/"during"
 * before it.
 *
 * @param from the first day of the period
 * @param until the day after its last
 */
public record QueryPeriod(LocalDate from, LocalDate until) {

    private static final String MONTH = "(january|february|march|april|may|june|july|august|september|october"
            + "|november|december)";

    private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th)?";

    private static final Pattern DAY_MONTH_YEAR = Pattern
        .compile("\\b" + DAY + "\\s+(?:of\\s+)?" + MONTH + ",?\\s+(\\d{4})\\b");

    private static final Pattern MONTH_DAY_YEAR = Pattern.compile("\\b" + MONTH + "\\s+" + DAY + ",?\\s+(\\d{4})\\b");

    /**
     * With "on" only: a bare ISO date in a developer's prompt is more often data than a
     * time asked about.
     */
    private static final Pattern ISO_DAY = Pattern.compile("\\bon\\s+(\\d{4})-(\\d{2})-(\\d{2})\\b");

    private static final Pattern MONTH_YEAR = Pattern.compile("\\b" + MONTH + ",?\\s+(\\d{4})\\b");

    private static final Pattern IN_MONTH = Pattern
        .compile("\\b(?:in|during)\\s+(?:(?:early|mid|late)-?\\s*)?" + MONTH + "\\b");

    private static final Pattern IN_YEAR = Pattern.compile("\\b(?:in|during)\\s+((?:19|20)\\d{2})\\b");

    public QueryPeriod {
        if (!until.isAfter(from)) {
            throw new IllegalArgumentException("a period ends after it starts: " + from + " .. " + until);
        }
    }

    /**
     * The first period the text names, the most precise kind first (day, month, year).
     */
    public static Optional<QueryPeriod> of(String text, LocalDate today) {
        String s = text.toLowerCase(Locale.ROOT);
        Matcher m = DAY_MONTH_YEAR.matcher(s);
        if (m.find()) {
            return day(Integer.parseInt(m.group(3)), month(m.group(2)), Integer.parseInt(m.group(1)));
        }
        m = MONTH_DAY_YEAR.matcher(s);
        if (m.find()) {
            return day(Integer.parseInt(m.group(3)), month(m.group(1)), Integer.parseInt(m.group(2)));
        }
        m = ISO_DAY.matcher(s);
        if (m.find()) {
            return day(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        }
        m = MONTH_YEAR.matcher(s);
        if (m.find()) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(2)), month(m.group(1)), 1);
            return Optional.of(new QueryPeriod(first, first.plusMonths(1)));
        }
        m = IN_MONTH.matcher(s);
        if (m.find()) {
            LocalDate first = LocalDate.of(today.getYear(), month(m.group(1)), 1);
            if (first.isAfter(today)) {
                first = first.minusYears(1);
            }
            return Optional.of(new QueryPeriod(first, first.plusMonths(1)));
        }
        m = IN_YEAR.matcher(s);
        if (m.find()) {
            LocalDate first = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
            return Optional.of(new QueryPeriod(first, first.plusYears(1)));
        }
        return Optional.empty();
    }

    /**
     * Whether a memory from this time belongs to the period: from its first day until
     * {@code graceDays} after its last (what happened is often told a few days later:
     * "last Friday I twisted my knee").
     */
    public boolean holds(LocalDateTime time, int graceDays) {
        LocalDate day = time.toLocalDate();
        return !day.isBefore(from) && day.isBefore(until.plusDays(graceDays));
    }

    @Override
    public String toString() {
        return from + ".." + until.minusDays(1);
    }

    private static int month(String name) {
        for (Month m : Month.values()) {
            if (m.getDisplayName(TextStyle.FULL, Locale.ENGLISH).equalsIgnoreCase(name)) {
                return m.getValue();
            }
        }
        throw new IllegalArgumentException("not a month: " + name);
    }

    private static Optional<QueryPeriod> day(int year, int month, int day) {
        try {
            LocalDate d = LocalDate.of(year, month, day);
            return Optional.of(new QueryPeriod(d, d.plusDays(1)));
        }
        catch (java.time.DateTimeException e) {
            return Optional.empty();
        }
    }
}
