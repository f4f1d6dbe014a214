package dev.codememory.config.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.codememory.config.json.Json.JsonNumber;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTests {

    // ---- parse: values ----

    @Test
    void parsesObjectKeepingKeyOrder() {
        Object parsed = Json.parse("{\"zeta\":1,\"alpha\":\"a\",\"mid\":[true,false,null],\"obj\":{}}");

        assertThat(parsed).isInstanceOf(LinkedHashMap.class);
        Map<String, Object> map = object(parsed);
        assertThat(map.keySet()).containsExactly("zeta", "alpha", "mid", "obj");
        assertThat(map.get("zeta")).isEqualTo(new JsonNumber("1"));
        assertThat(map.get("alpha")).isEqualTo("a");
        assertThat(map.get("mid")).isEqualTo(Arrays.asList(Boolean.TRUE, Boolean.FALSE, null));
        assertThat(map.get("obj")).isEqualTo(Map.of());
    }

    @Test
    void parsesNestedArraysAndObjects() {
        Object parsed = Json.parse("[1, [2, [3]], {\"a\": {\"b\": [\"c\"]}}, []]");

        assertThat(parsed).isInstanceOf(ArrayList.class);
        assertThat(parsed)
            .isEqualTo(List.of(new JsonNumber("1"), List.of(new JsonNumber("2"), List.of(new JsonNumber("3"))),
                    Map.of("a", Map.of("b", List.of("c"))), List.of()));
    }

    @Test
    void allowsJsonWhitespaceAroundAndInsideValues() {
        Object parsed = Json.parse(" \t\r\n{ \"a\" :\n[ 1 ,\t2 ] }\r\n ");

        assertThat(parsed).isEqualTo(Map.of("a", List.of(new JsonNumber("1"), new JsonNumber("2"))));
    }

    @Test
    void parsesScalarsAtTopLevel() {
        assertThat(Json.parse("true")).isEqualTo(Boolean.TRUE);
        assertThat(Json.parse("false")).isEqualTo(Boolean.FALSE);
        assertThat(Json.parse("null")).isNull();
        assertThat(Json.parse("\"text\"")).isEqualTo("text");
        assertThat(Json.parse("-7")).isEqualTo(new JsonNumber("-7"));
    }

    @Test
    void keepsNumbersAsTheirLiteralText() {
        Object parsed = Json
            .parse("[0, -0, 1.50, -12.0e-3, 1E+10, 2e5, 12345678901234567890123, 0.1000000000000000055511]");

        assertThat(parsed).isEqualTo(List.of(new JsonNumber("0"), new JsonNumber("-0"), new JsonNumber("1.50"),
                new JsonNumber("-12.0e-3"), new JsonNumber("1E+10"), new JsonNumber("2e5"),
                new JsonNumber("12345678901234567890123"), new JsonNumber("0.1000000000000000055511")));
    }

    @Test
    void decodesEverySimpleEscape() {
        assertThat(Json.parse("\"q\\\" b\\\\ s\\/ b\\b f\\f n\\n r\\r t\\t\""))
            .isEqualTo("q\" b\\ s/ b\b f\f n\n r\r t\t");
    }

    @Test
    void decodesUnicodeEscapesInEitherCase() {
        assertThat(Json.parse("\"\\u0041\\u00e9\\u00E9\\uAC00\\u0000\"")).isEqualTo("Aéé가\u0000");
    }

    @Test
    void decodesEscapedSurrogatePairIntoOneCodePoint() {
        String parsed = (String) Json.parse("\"smile \\ud83d\\ude00!\"");

        assertThat(parsed).isEqualTo("smile 😀!");
        assertThat(parsed.codePointCount(0, parsed.length())).isEqualTo(8);
        assertThat(parsed.codePointAt(6)).isEqualTo(0x1F600);
    }

    @Test
    void keepsRawNonAsciiText() {
        assertThat(Json.parse("{\"k\":\"안녕 é 😀\"}")).isEqualTo(Map.of("k", "안녕 é 😀"));
    }

    @Test
    void lastDuplicateKeyWinsAndKeepsFirstPosition() {
        Map<String, Object> map = object(Json.parse("{\"a\":1,\"b\":2,\"a\":3}"));

        assertThat(map.keySet()).containsExactly("a", "b");
        assertThat(map.get("a")).isEqualTo(new JsonNumber("3"));
    }

    // ---- parse: errors ----

    @Test
    void rejectsTruncatedInput() {
        for (String text : List.of("", "   ", "{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "[", "[1,", "\"abc",
                "tru", "nul", "-", "1.", "1e", "1e+", "\"\\u12", "\"\\")) {
            assertThatThrownBy(() -> Json.parse(text)).as(text).isInstanceOf(JsonParseException.class);
        }
    }

    @Test
    void rejectsTrailingGarbage() {
        assertThatThrownBy(() -> Json.parse("{} x")).isInstanceOf(JsonParseException.class)
            .hasMessage("unexpected text after the JSON value at character 3");
        assertThatThrownBy(() -> Json.parse("[1]]")).isInstanceOf(JsonParseException.class);
        assertThatThrownBy(() -> Json.parse("1 2")).isInstanceOf(JsonParseException.class);
        assertThatThrownBy(() -> Json.parse("01")).isInstanceOf(JsonParseException.class);
        assertThatThrownBy(() -> Json.parse("truex")).isInstanceOf(JsonParseException.class);
    }

    @Test
    void rejectsMalformedStructure() {
        for (String text : List.of("{a:1}", "{\"a\" 1}", "{\"a\":1,}", "[1,]", "[1 2]", "{\"a\":1 \"b\":2}", "'s'",
                "+1", ".5", "NaN", "Infinity", "[,1]", "{,}", "}")) {
            assertThatThrownBy(() -> Json.parse(text)).as(text).isInstanceOf(JsonParseException.class);
        }
    }

    @Test
    void rejectsBadEscapes() {
        assertThatThrownBy(() -> Json.parse("\"\\x\"")).isInstanceOf(JsonParseException.class)
            .hasMessage("bad escape '\\x' at character 3");
        for (String text : List.of("\"\\a\"", "\"\\U0041\"", "\"\\u00g1\"", "\"\\u12\"", "\"\\u-123\"", "\"\\u+041\"",
                "\"\\u 041\"", "\"\\u\uFF10\uFF10\uFF14\uFF11\"", "\"\\\u0001\"")) {
            assertThatThrownBy(() -> Json.parse(text)).as(text).isInstanceOf(JsonParseException.class);
        }
    }

    @Test
    void rejectsControlCharactersInStrings() {
        for (char c : new char[] { '\u0000', '\n', '\r', '\t', '\u001f' }) {
            assertThatThrownBy(() -> Json.parse("\"a" + c + "b\"")).as("U+%04X", (int) c)
                .isInstanceOf(JsonParseException.class)
                .hasMessage("control character in string at character 2");
        }
        assertThat(Json.parse("\"a\u007fb\"")).isEqualTo("a\u007fb");
    }

    @Test
    void acceptsNestingUpTo512Levels() {
        String arrays = "[".repeat(512) + "]".repeat(512);
        Object parsed = Json.parse(arrays);

        int depth = 0;
        for (Object o = parsed; o instanceof List<?> list; o = list.isEmpty() ? null : list.get(0)) {
            depth++;
        }
        assertThat(depth).isEqualTo(512);

        String objects = "{\"a\":".repeat(511) + "{}" + "}".repeat(511);
        assertThat(Json.parse(objects)).isInstanceOf(Map.class);
    }

    @Test
    void rejectsNestingOver512Levels() {
        assertThatThrownBy(() -> Json.parse("[".repeat(513) + "]".repeat(513))).isInstanceOf(JsonParseException.class)
            .hasMessageStartingWith("nesting deeper than 512");
        assertThatThrownBy(() -> Json.parse("{\"a\":".repeat(513) + "1" + "}".repeat(513)))
            .isInstanceOf(JsonParseException.class)
            .hasMessageStartingWith("nesting deeper than 512");
        assertThatThrownBy(() -> Json.parse("[".repeat(100_000))).isInstanceOf(JsonParseException.class)
            .hasMessageStartingWith("nesting deeper than 512");
    }

    @Test
    void errorMessagesNameThePositionButNotTheInput() {
        assertThatThrownBy(() -> Json.parse("{\"secret-value\" 1}")).isInstanceOf(JsonParseException.class)
            .hasMessage("expected ':' at character 16")
            .message()
            .doesNotContain("secret-value");
    }

    // ---- write ----

    @Test
    void writesValuesCompactlyInKeyOrder() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("z", "text");
        map.put("a", new JsonNumber("1.50"));
        map.put("n", null);
        map.put("t", true);
        map.put("f", false);
        map.put("i", 42);
        map.put("l", List.of(1L, "x", List.of(), Map.of()));

        assertThat(Json.write(map))
            .isEqualTo("{\"z\":\"text\",\"a\":1.50,\"n\":null,\"t\":true,\"f\":false,\"i\":42,\"l\":[1,\"x\",[],{}]}");
    }

    @Test
    void writesOtherObjectsAsTheirStringAndKeysWithStringValueOf() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(7, java.time.LocalDate.of(2025, 6, 1));

        assertThat(Json.write(map)).isEqualTo("{\"7\":\"2025-06-01\"}");
    }

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(Json.write("q\" b\\ n\n r\r t\t b\b f\f nul\u0000 us\u001f del\u007f /"))
            .isEqualTo("\"q\\\" b\\\\ n\\n r\\r t\\t b\\b f\\f nul\\u0000 us\\u001f del\\u007f /\"");
    }

    @Test
    void escapesLineAndParagraphSeparators() {
        assertThat(Json.write("a\u2028b\u2029c")).isEqualTo("\"a\\u2028b\\u2029c\"");
    }

    @Test
    void keepsSurrogatePairsAndReplacesLoneSurrogates() {
        assertThat(Json.write("ok 😀")).isEqualTo("\"ok 😀\"");
        assertThat(Json.write("high \ud83d only")).isEqualTo("\"high \uFFFD only\"");
        assertThat(Json.write("low \ude00 only")).isEqualTo("\"low \uFFFD only\"");
        assertThat(Json.write("end \ud83d")).isEqualTo("\"end \uFFFD\"");
        assertThat(Json.write("\ude00\ud83d")).isEqualTo("\"\uFFFD\uFFFD\"");
    }

    @Test
    void writeOutputIsValidUtf8ForLoneSurrogates() {
        String written = Json.write(Map.of("k", "\ud800x"));
        byte[] utf8 = written.getBytes(java.nio.charset.StandardCharsets.UTF_8);

        assertThat(new String(utf8, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"k\":\"\uFFFDx\"}");
    }

    @Test
    void parseOfWriteRoundTrips() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("ctl", "\u0000\u0001\u001f\u007f\b\f\n\r\t");
        inner.put("seps", "\u2028\u2029");
        inner.put("quotes", "\"\\/");
        inner.put("unicode", "안녕 é 😀");
        inner.put("empty", "");
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("b", inner);
        value.put("a", Arrays.asList(new JsonNumber("-1.5e-7"), new JsonNumber("12345678901234567890"), true, false,
                null, List.of(), Map.of()));

        String written = Json.write(value);
        Object reparsed = Json.parse(written);

        assertThat(reparsed).isEqualTo(value);
        assertThat(object(reparsed).keySet()).containsExactly("b", "a");
        assertThat(object(object(reparsed).get("b")).keySet()).containsExactly("ctl", "seps", "quotes", "unicode",
                "empty");
        assertThat(Json.write(reparsed)).isEqualTo(written);
    }

    @Test
    void writeIntoBuilderAppends() {
        StringBuilder out = new StringBuilder("prefix:");
        Json.write(List.of("a"), out);
        Json.writeString("b", out);

        assertThat(out).hasToString("prefix:[\"a\"]\"b\"");
    }

    @Test
    void writesEveryStringAsTheCharacterByCharacterWriterDid() {
        // the writer skips runs of plain characters in bulk; what it writes must not
        // change
        java.util.Random random = new java.util.Random(11);
        char[] alphabet = { 'a', 'Z', '0', ' ', '"', '\\', '/', '?', '\n', '\r', '\t', '\b', '\f', '\u0000', '\u001b',
                '\u001f', '\u007f', '\u0080', '\u009f', '\u00a0', '\u00e9', '\u00ff', '\u0100', '\u20ac', '\u2028',
                '\u2029', '\ud83d', '\ude00', '\ufffd', '\uffff', '\uac00' };
        for (int k = 0; k < 5000; k++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(k % 10 == 0 ? 300 : 12);
            for (int i = 0; i < length; i++) {
                s.append(random.nextInt(3) == 0 ? alphabet[random.nextInt(alphabet.length)]
                        : (char) ('a' + random.nextInt(26)));
            }
            StringBuilder out = new StringBuilder();
            Json.writeString(s.toString(), out);
            assertThat(out.toString()).as("writing %s", s).isEqualTo(referenceWrite(s.toString()));
        }
    }

    @Test
    void parsesLongStringsWithEscapesBetweenPlainRuns() {
        String plain = "x".repeat(5000);
        String json = "\"" + plain + "\\n\\\"" + plain + "\\u00e9\u00e9\u20ac" + plain + "\"";

        assertThat(Json.parse(json)).isEqualTo(plain + "\n\"" + plain + "\u00e9\u00e9\u20ac" + plain);
        assertThatThrownBy(() -> Json.parse("\"" + plain + "\u0001\"")).hasMessageContaining("control character")
            .hasMessageContaining("at character 5001");
        assertThatThrownBy(() -> Json.parse("\"" + plain)).hasMessageContaining("unterminated string");
    }

    /**
     * The writer as it was, one character at a time: the specification the bulk writer is
     * held to.
     */
    private static String referenceWrite(String s) {
        StringBuilder out = new StringBuilder("\"");
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Json.appendShortEscape(c, out)) {
                continue;
            }
            if (c < 0x20 || c == 0x2028 || c == 0x2029 || c == 0x7f) {
                out.append(String.format("\\u%04x", (int) c));
            }
            else if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    out.append(c).append(s.charAt(++i));
                }
                else {
                    out.append('\uFFFD');
                }
            }
            else if (Character.isLowSurrogate(c)) {
                out.append('\uFFFD');
            }
            else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

}
