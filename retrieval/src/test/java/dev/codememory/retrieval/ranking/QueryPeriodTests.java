package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class QueryPeriodTests {

    private static final LocalDate TODAY = LocalDate.of(2023, 10, 22);

    private static QueryPeriod period(String text) {
        return QueryPeriod.of(text, TODAY).orElseThrow();
    }

    private static QueryPeriod days(String from, String until) {
        return new QueryPeriod(LocalDate.parse(from), LocalDate.parse(until));
    }

    @Test
    void aDayInEachWrittenForm() {
        assertThat(period("What did John organize on 8 May, 2022?")).isEqualTo(days("2022-05-08", "2022-05-09"));
        assertThat(period("What news did Evan share on 9th December 2023?"))
            .isEqualTo(days("2023-12-09", "2023-12-10"));
        assertThat(period("What painting was shown on October 13, 2023?")).isEqualTo(days("2023-10-13", "2023-10-14"));
        assertThat(period("which migration ran on 2024-03-01")).isEqualTo(days("2024-03-01", "2024-03-02"));
    }

    @Test
    void aMonthWithItsYearOrTheLatestOneUpToToday() {
        assertThat(period("Which classes did Evan join in mid-August 2023?"))
            .isEqualTo(days("2023-08-01", "2023-09-01"));
        assertThat(period("What did we decide in December, 2022")).isEqualTo(days("2022-12-01", "2023-01-01"));
        assertThat(period("When did Melanie go camping in June?")).isEqualTo(days("2023-06-01", "2023-07-01"));
        // November 2023 is still ahead of 22 October 2023: the latest November is last
        // year's
        assertThat(period("what broke during November")).isEqualTo(days("2022-11-01", "2022-12-01"));
    }

    @Test
    void aYear() {
        assertThat(period("What happened to John's job situation in 2022?"))
            .isEqualTo(days("2022-01-01", "2023-01-01"));
        assertThat(period("Did James have a girlfriend during 2021")).isEqualTo(days("2021-01-01", "2022-01-01"));
    }

    @Test
    void noPeriodWhereNoneIsNamed() {
        assertThat(QueryPeriod.of("May I use the staging database?", TODAY)).isEmpty();
        assertThat(QueryPeriod.of("which port does the api listen on", TODAY)).isEmpty();
        assertThat(QueryPeriod.of("we bought 2022 licences", TODAY)).isEmpty();
        assertThat(QueryPeriod.of("parse 2024-03-01 as a LocalDate in the importer", TODAY)).isEmpty();
        assertThat(QueryPeriod.of("what happened on 31 February, 2023", TODAY)).isEmpty();
    }

    @Test
    void aMemoryBelongsFromTheFirstDayUntilTheGraceAfterTheLast() {
        QueryPeriod august = days("2023-08-01", "2023-09-01");

        assertThat(august.holds(LocalDateTime.of(2023, 7, 31, 23, 59), 7)).isFalse();
        assertThat(august.holds(LocalDateTime.of(2023, 8, 1, 0, 0), 7)).isTrue();
        assertThat(august.holds(LocalDateTime.of(2023, 9, 7, 23, 0), 7)).isTrue();
        assertThat(august.holds(LocalDateTime.of(2023, 9, 8, 0, 0), 7)).isFalse();
        assertThat(august.holds(LocalDateTime.of(2023, 9, 1, 0, 0), 0)).isFalse();
    }

}
