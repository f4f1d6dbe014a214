package dev.codememory.jobs.forget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.jobs.Cli;
import dev.codememory.writers.forget.DuckDbForgetter;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ForgetCommandTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aDateIsLocalMidnightALocalTimeIsLocalAndAnOffsetIsTakenAsItSays() {
        assertThat(ForgetCommand.parseBefore("2026-01-31", BERLIN)).isEqualTo(LocalDateTime.of(2026, 1, 30, 23, 0));
        assertThat(ForgetCommand.parseBefore("2026-07-01T12:00", BERLIN))
            .isEqualTo(LocalDateTime.of(2026, 7, 1, 10, 0));
        assertThat(ForgetCommand.parseBefore(" 2026-07-01T12:00:00Z ", BERLIN))
            .isEqualTo(LocalDateTime.of(2026, 7, 1, 12, 0));
        assertThat(ForgetCommand.parseBefore("2026-07-01T12:00+02:00", BERLIN))
            .isEqualTo(LocalDateTime.of(2026, 7, 1, 10, 0));
        assertThatThrownBy(() -> ForgetCommand.parseBefore("last week", BERLIN))
            .hasMessage("--before needs a date like 2026-01-31 or 2026-01-31T12:00, was last week");
    }

    @Test
    void aPhraseThatStartsWithTwoDashesIsAPhrase() {
        for (List<String> args : List.of(List.of("forget", "--match", "--before=2100-01-01", "--dry-run"),
                List.of("forget", "--match=--before=2100-01-01", "--dry-run"))) {
            CommandLine.ParseResult parsed = Cli.commandLine(System.out, System.err)
                .parseArgs(args.toArray(String[]::new));

            ForgetCommand command = (ForgetCommand) parsed.subcommand().commandSpec().userObject();
            assertThat(command.match).as("%s", args).isEqualTo("--before=2100-01-01");
            assertThat(command.before).as("%s", args).isNull();
            assertThat(command.dryRun).as("%s", args).isTrue();
        }
        assertThatThrownBy(() -> ForgetService.Subject.citation("--before=2100-01-01"))
            .hasMessage("not a citation: --before=2100-01-01");
    }

    @Test
    void describesCountsInWords() {
        assertThat(ForgetService.describe(new DuckDbForgetter.Counts(1, 0, 2, 1, 3, 1, 4, 0, 1, 0))).isEqualTo(
                "1 event, 0 sessions, 2 memories (1 verified), 3 candidates, 1 turn, 4 tool observations, 1 task");
        assertThat(ForgetService.describe(new DuckDbForgetter.Counts(0, 0, 1, 1, 1, 0, 0, 0, 0, 1)))
            .endsWith("0 tasks; 1 session summary to compose again without it");
    }

}
