package dev.codememory.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.codememory.jobs.search.QueryCommand;
import dev.codememory.retrieval.query.QueryResult;
import dev.codememory.retrieval.query.RankedSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandTests {

    @TempDir
    Path tmp;

    @Test
    void ranksTurnsByTheirBestSourceScoreCorroboratedByTheOtherHitsCitingThem() throws Exception {
        Path answers = tmp.resolve("answers.jsonl");
        Files.writeString(answers,
                QueryCommand.resultLine(
                        "q", List.of(
                                new QueryResult("m1", "mem:aaaaaa", 0.9, "exchange", "x",
                                        List.of(new RankedSource("e1", "s", LocalDateTime.of(2023, 5, 8, 13, 57), 0.95),
                                                new RankedSource("e2", "s", LocalDateTime.of(2023, 5, 8, 13, 58),
                                                        0.90)),
                                        LocalDateTime.of(2023, 5, 8, 13, 57), "s"),
                                new QueryResult("m2", "mem:bbbbbb", 0.8, "exchange", "y",
                                        List.of(new RankedSource("e3", "s", LocalDateTime.of(2023, 5, 8, 13, 59), 0.92),
                                                new RankedSource("e2", "s", LocalDateTime.of(2023, 5, 8, 13, 58), 0.85),
                                                new RankedSource("e4", "s", LocalDateTime.of(2023, 5, 8, 14, 0), 0.80)),
                                        LocalDateTime.of(2023, 5, 8, 13, 59), "s")))
                        + "\n");
        Map<String, String> dialog = Map.of(EvalCommand.key("s", "2023-05-08T13:57:00Z"), "c/D1:1",
                EvalCommand.key("s", "2023-05-08T13:58:00Z"), "c/D1:2", EvalCommand.key("s", "2023-05-08T13:59:00Z"),
                "c/D1:3", EvalCommand.key("s", "2023-05-08T14:00:00Z"), "c/D1:4");
        Path results = tmp.resolve("results.jsonl");

        EvalCommand.writeResults(answers, dialog, results);

        // D1:2 is cited by both hits: 0.90 + 0.1 × 0.85 = 0.985 puts it above D1:1 (0.95)
        // and D1:3 (0.92)
        assertThat(Files.readString(results)).isEqualTo(
                "{\"qid\":\"q\",\"ranked\":[\"c/D1:2\",\"c/D1:1\",\"c/D1:3\",\"c/D1:4\"]}" + System.lineSeparator());
        assertThat(EvalCommand.corroborated(List.of(0.9))).isEqualTo(0.9);
        assertThat(EvalCommand.corroborated(List.of(0.5, 0.9, 0.4))).isCloseTo(0.99,
                org.assertj.core.data.Offset.offset(1e-12));
    }

}
