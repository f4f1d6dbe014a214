package dev.codememory.jobs.viewer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.readers.report.ReportQueries;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The health page's opening sentences. */
class ViewerAdminPagesTests {

    private static final ReportQueries.Counts COUNTS = new ReportQueries.Counts(32, Map.of(), Map.of(), 0, 3, 1,
            Map.of(), Map.of("active", 31L), Map.of(), 0);

    private static final ReportQueries.Lag LAG = new ReportQueries.Lag(0, null, null, null, 0);

    @Test
    void aHomeWithNothingCapturedLatelySaysSoInsteadOfZeroEventsWorking() {
        List<String> sentences = ViewerAdminPages.sentences(COUNTS, LAG, Map.of(LocalDate.parse("2026-11-28"), 0L),
                Map.of(), 0, 0, List.of());

        assertThat(sentences.get(0)).isEqualTo("Nothing captured in the last 30 days (32 events from 3 sessions"
                + " before that): if you used Claude Code meanwhile, check that the hooks are installed.");
    }

    @Test
    void recentCaptureIsCountedByDay() {
        List<String> sentences = ViewerAdminPages.sentences(COUNTS, LAG,
                Map.of(LocalDate.parse("2026-11-27"), 20L, LocalDate.parse("2026-11-28"), 12L), Map.of(), 0, 0,
                List.of());

        assertThat(sentences.get(0))
            .isEqualTo("Capture works: 32 events on 2 days of the last 30 (32 events from 3 sessions in all).");
    }

    @Test
    void distillUsageIsShownPerDayOnceItRanAndNotBefore() {
        assertThat(ViewerAdminPages.distill(Map.of(), Map.of(), Map.of("proven", 0L))).isEmpty();

        Map<LocalDate, long[]> usage = new java.util.LinkedHashMap<>();
        usage.put(LocalDate.parse("2026-11-29"), new long[] { 3, 24_500, 1_800 });
        usage.put(LocalDate.parse("2026-11-28"), new long[] { 1, 7_767, 512 });
        String html = ViewerAdminPages.distill(usage, Map.of("answered", 4L, "failed", 1L, "skipped", 2L),
                Map.of("proven", 11L, "not_in_session", 3L, "gated", 1L));

        assertThat(html)
            .contains(
                    "4 sessions answered, 11 claims proven and kept, 4 rejected unproven;" + " 1 session to ask again.")
            .contains("<tr><td>2026-11-29</td><td>3</td><td>24,500</td><td>1,800</td></tr>")
            .contains("<tr><td>2026-11-28</td><td>1</td><td>7,767</td><td>512</td></tr>");
        assertThat(html.indexOf("2026-11-29")).isLessThan(html.indexOf("2026-11-28"));
    }

}
