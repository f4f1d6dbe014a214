package dev.codememory.config.text;

import java.time.Instant;

/**
 * {@link Instant#toString()}'s spelling ({@code 2026-11-02T09:00:01.123Z}: seconds
 * always, the fraction in groups of three digits as needed) without
 * {@code java.time.format}, whose set-up costs a short-lived hook process several
 * milliseconds. Instants outside the years 1970 to 9999 are left to
 * {@link Instant#toString()}.
 */
public final class IsoInstant {

    /** 10000-01-01T00:00:00Z. */
    private static final long YEAR_10000 = 253_402_300_800L;

    private IsoInstant() {
    }

    public static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < 0 || seconds >= YEAR_10000) {
            return instant.toString();
        }
        // the civil date of a day count (H. Hinnant, "chrono-Compatible Low-Level Date
        // Algorithms")
        long z = seconds / 86_400 + 719_468;
        long era = z / 146_097;
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        int secondOfDay = (int) (seconds % 86_400);
        StringBuilder out = new StringBuilder(30);
        digits(out, year, 4).append('-');
        digits(out, month, 2).append('-');
        digits(out, day, 2).append('T');
        digits(out, secondOfDay / 3600, 2).append(':');
        digits(out, secondOfDay / 60 % 60, 2).append(':');
        digits(out, secondOfDay % 60, 2);
        int nano = instant.getNano();
        if (nano > 0) {
            out.append('.');
            if (nano % 1_000_000 == 0) {
                digits(out, nano / 1_000_000, 3);
            }
            else if (nano % 1000 == 0) {
                digits(out, nano / 1000, 6);
            }
            else {
                digits(out, nano, 9);
            }
        }
        return out.append('Z').toString();
    }

    private static StringBuilder digits(StringBuilder out, int value, int width) {
        char[] buf = new char[width];
        for (int k = width - 1; k >= 0; k--) {
            buf[k] = (char) ('0' + value % 10);
            value /= 10;
        }
        return out.append(buf);
    }

}
