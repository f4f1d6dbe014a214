package dev.codememory.retrieval.vector.milvus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.fail;

import dev.codememory.config.vector.VectorFilter;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MilvusFiltersTests {

    /** 2023-11-14T22:13:20Z is 1,700,000,000,000 ms after the epoch. */
    private static final LocalDateTime FROM = LocalDateTime.of(2023, 11, 14, 22, 13, 20);

    private static final LocalDateTime TO = LocalDateTime.of(2023, 11, 15, 22, 13, 20, 500_000_000);

    @Test
    void filtersNothingWhenNothingRestricts() {
        assertThat(MilvusFilters.of(VectorFilter.none())).isEmpty();
    }

    @Test
    void combinesEveryFieldInAFixedOrder() {
        VectorFilter filter = new VectorFilter("/home/me/app", Set.of("fact", "decision"), Set.of("active"), FROM, TO);

        assertThat(MilvusFilters.of(filter))
            .isEqualTo("project == \"/home/me/app\"" + " and kind in [\"decision\", \"fact\"]"
                    + " and status in [\"active\"]" + " and ts >= 1700000000000" + " and ts < 1700086400500");
    }

    @Test
    void scopesAProjectToActiveMemoriesWithTheFactory() {
        assertThat(MilvusFilters.of(VectorFilter.project("/repo")))
            .isEqualTo("project == \"/repo\" and status in [\"active\"]");
    }

    static Stream<Arguments> everyCombination() {
        return IntStream.range(0, 32).mapToObj(mask -> {
            List<String> clauses = new ArrayList<>();
            String project = null;
            Set<String> kinds = Set.of();
            Set<String> statuses = Set.of();
            LocalDateTime from = null;
            LocalDateTime to = null;
            if ((mask & 1) != 0) {
                project = "/p";
                clauses.add("project == \"/p\"");
            }
            if ((mask & 2) != 0) {
                kinds = Set.of("task", "insight", "preference");
                clauses.add("kind in [\"insight\", \"preference\", \"task\"]");
            }
            if ((mask & 4) != 0) {
                statuses = Set.of("superseded", "active");
                clauses.add("status in [\"active\", \"superseded\"]");
            }
            if ((mask & 8) != 0) {
                from = FROM;
                clauses.add("ts >= 1700000000000");
            }
            if ((mask & 16) != 0) {
                to = TO;
                clauses.add("ts < 1700086400500");
            }
            return Arguments.of(new VectorFilter(project, kinds, statuses, from, to), String.join(" and ", clauses));
        });
    }

    @ParameterizedTest
    @MethodSource("everyCombination")
    void writesOneClausePerRestrictedField(VectorFilter filter, String expected) {
        assertThat(MilvusFilters.of(filter)).isEqualTo(expected);
    }

    @Test
    void writesTimesBeforeTheEpochAsNegativeMillis() {
        VectorFilter filter = new VectorFilter(null, Set.of(), Set.of(), LocalDateTime.of(1969, 12, 31, 23, 59, 59),
                null);

        assertThat(MilvusFilters.of(filter)).isEqualTo("ts >= -1000");
    }

    @Test
    void keepsAHostileProjectInsideItsLiteral() {
        VectorFilter filter = new VectorFilter("a\" || memory_id != \"", Set.of(), Set.of(), null, null);

        assertThat(MilvusFilters.of(filter)).isEqualTo("project == \"a\\\" || memory_id != \\\"\"");
    }

    @Test
    void escapesBackslashesBeforeQuotes() {
        assertThat(MilvusFilters.literal("C:\\Users\\me\\")).isEqualTo("\"C:\\\\Users\\\\me\\\\\"");
        assertThat(MilvusFilters.literal("\\\" or true or \\\"")).isEqualTo("\"\\\\\\\" or true or \\\\\\\"\"");
    }

    @Test
    void escapesLineBreaksTabsAndOtherControlCharacters() {
        assertThat(MilvusFilters.literal("a\nb\rc\td")).isEqualTo("\"a\\nb\\rc\\td\"");
        assertThat(MilvusFilters.literal("\u0000\u0001\u001b\u001f\u007f"))
            .isEqualTo("\"\\u0000\\u0001\\u001b\\u001f\\u007f\"");
    }

    @Test
    void leavesUnicodeAndSingleQuotesAsTheyAre() {
        assertThat(MilvusFilters.literal("Проект/日本語/é/😀")).isEqualTo("\"Проект/日本語/é/😀\"");
        assertThat(MilvusFilters.literal("it's 'quoted'")).isEqualTo("\"it's 'quoted'\"");
        assertThat(MilvusFilters.literal("")).isEqualTo("\"\"");
    }

    @Test
    void matchesMemoryIdsInTheGivenOrder() {
        assertThat(MilvusFilters.memoryIdIn(List.of("m-2", "m-1", "x\"]) or memory_id in [\"y")))
            .isEqualTo("memory_id in [\"m-2\", \"m-1\", \"x\\\"]) or memory_id in [\\\"y\"]");
    }

    @Test
    void refusesAnEmptyIdList() {
        assertThatIllegalArgumentException().isThrownBy(() -> MilvusFilters.memoryIdIn(List.of()))
            .withMessage("no memory ids to match");
    }

    /**
     * Reads each literal back the way Milvus does (its lexer's {@code StringLiteral},
     * then Go's unquoting): the literal must be one token that ends at its last character
     * and denotes exactly the input.
     */
    @ParameterizedTest
    @ValueSource(strings = { "a\" || memory_id != \"", "\\", "\\\\\"", "x\" or \"1\" == \"1", "line\nbreak\r\n",
            "tab\there", "nul\u0000bell\u0007del\u007f", "\"", "'", "\\'", "Проект 日本語 😀", "}{[]()", "" })
    void writesLiteralsMilvusReadsBackAsTheSameValue(String value) {
        assertThat(readMilvusLiteral(MilvusFilters.literal(value))).isEqualTo(value);
    }

    /**
     * The subset of Milvus's double-quoted literal grammar that
     * {@link MilvusFilters#literal} may produce.
     */
    private static String readMilvusLiteral(String literal) {
        if (literal.length() < 2 || literal.charAt(0) != '"') {
            fail("not a double-quoted literal: " + literal);
        }
        StringBuilder value = new StringBuilder();
        int i = 1;
        while (true) {
            if (i >= literal.length()) {
                fail("literal never closes: " + literal);
            }
            char c = literal.charAt(i);
            if (c == '"') {
                if (i != literal.length() - 1) {
                    fail("literal closes early at " + i + ", the rest would be parsed as expression: " + literal);
                }
                return value.toString();
            }
            if (c == '\n' || c == '\r') {
                fail("raw line break in literal: " + literal);
            }
            if (c != '\\') {
                value.append(c);
                i++;
                continue;
            }
            char escape = literal.charAt(i + 1);
            switch (escape) {
                case '\\' -> value.append('\\');
                case '"' -> value.append('"');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'u' -> {
                    value.append((char) Integer.parseInt(literal.substring(i + 2, i + 6), 16));
                    i += 4;
                }
                default -> fail("escape Go's strconv.Unquote would reject or change: \\" + escape);
            }
            i += 2;
        }
    }

}
